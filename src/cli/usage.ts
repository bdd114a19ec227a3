/**
 * Each command's usage (printed with a usage error) and its help (`--help`: the usage, then every
 * option in a line), apart from the commands so that `--help` loads none of them.
 */
export const CRAWL_USAGE = `usage: webcorpus crawl DOMAIN [--budget N] [--refresh] [--force] [--shots N]
                       [--scope domain|host|URL] [--include GLOB]... [--exclude GLOB]...
                       [--start URL]... [--render auto|never|always] [--json]`;

export const CRAWL_HELP = `${CRAWL_USAGE}

Crawl one company's site in the foreground with a live progress line, then print the job.
DOMAIN is a root domain such as python.org (no scheme, no path). Crawling a real site needs
internet access; to crawl a local copy, see WEBCORPUS_CONNECT_TO in docs/configuration.md.
Ctrl-C cancels the job; a second Ctrl-C leaves at once and hands the job to \`webcorpus serve\`.

options:
  --budget N      most pages to fetch (default: WEBCORPUS_DEFAULT_BUDGET, 500)
  --refresh       fetch pages already indexed again, with conditional requests (ETag, Last-Modified)
  --force         fetch unconditionally and re-index unchanged pages; start even if crawled recently
  --shots N       take screenshots of up to N pages, home page and most cited first (default 0)
  --scope S       what to crawl: domain (the registrable domain and its subdomains; default), host
                  (only the host the crawl starts on) or a URL prefix such as
                  https://docs.python.org/3/ (only URLs under it)
  --include GLOB  follow only URLs whose path (or path?query) matches one such glob (repeatable):
                  * within a segment, ** across them; /blog/** (no leading /: at any depth)
  --exclude GLOB  skip URLs matching the glob, e.g. '**/genindex*' (repeatable)
  --start URL     start here instead of the home page (repeatable; inside the scope); start URLs
                  are fetched even if --include/--exclude refuse them, the links found are not
  --render MODE   pages a script fills in, rendered in Chromium: auto (default; only pages whose
                  static HTML is an empty app shell or mostly script), never, always
  --json          print the whole job view at the end instead of the summary
  -h, --help      show this help`;

export const INSPECT_USAGE = `usage: webcorpus inspect URL [--header NAME:VALUE]... [--explain] [--compact]
       webcorpus inspect FILE --url URL [--header NAME:VALUE]... [--explain] [--compact]`;

export const INSPECT_HELP = `${INSPECT_USAGE}

Show what the crawler would store for one page, as JSON: id, url, title, domain, facets, the
markdown, metadata, assets, links, the chunks search indexes (heading, word pieces, whether the
chunk gets a vector) and signals. Nothing is stored.
A URL (http:// or https://) is fetched once as the crawler fetches it: SSRF guard,
WEBCORPUS_CONNECT_TO, timeouts and body cap; redirects followed; robots.txt is not read.
A FILE is a saved HTML page; nothing is fetched.

options:
  --url URL             the address FILE was saved from (links, domain and facets depend on it)
  --header NAME:VALUE   a response header to assume, e.g. Content-Language: de (repeatable)
  --explain             add why each facet was chosen
  --compact             print the JSON on one line
  -h, --help            show this help`;

export const KEYS_USAGE = `usage: webcorpus keys create NAME [--read-only]   print a new key (shown once)
       webcorpus keys list                       names, prefixes, rights (never the keys)
       webcorpus keys revoke NAME`;

export const KEYS_HELP = `${KEYS_USAGE}

API keys: reads need none (unless WEBCORPUS_PUBLIC_READS=false), writes (crawls, shelves) do.
Send one as "Authorization: Bearer KEY". Keys are stored hashed; a revoked name is not reused.

options:
  --read-only    the new key may read but not write
  -h, --help     show this help`;

export const SERVE_USAGE = `usage: webcorpus serve [--host ADDR] [--port N] [--no-worker]`;

export const SERVE_HELP = `${SERVE_USAGE}

Run the HTTP API, Swagger UI (/api/docs), the MCP endpoint (/api/mcp) and the crawl workers.
Data goes to WEBCORPUS_DATA_DIR (default ./data). SIGTERM or Ctrl-C stops it cleanly.

options:
  --host ADDR    address to listen on (default: WEBCORPUS_HOST, 127.0.0.1)
  --port N       port to listen on (default: WEBCORPUS_PORT, 8000)
  --no-worker    serve the API only, run no crawls (WEBCORPUS_WORKER=false)
  -h, --help     show this help`;

export const SHELVES_USAGE = `usage: webcorpus shelves list [--json]
       webcorpus shelves show SLUG [--json]
       webcorpus shelves put SLUG [--name NAME] [--description TEXT]
       webcorpus shelves add SLUG DOMAIN... [--reason TEXT] [--placed-by person|agent]
       webcorpus shelves remove SLUG DOMAIN...
       webcorpus shelves crawl SLUG [--budget N] [--refresh] [--uncrawled]`;

export const SHELVES_HELP = `${SHELVES_USAGE}

Shelves (collections) group companies; ?collection=SLUG filters reads to the companies on one.
SLUG: 1-63 letters, digits or hyphens. \`crawl\` queues a crawl of each member for \`serve\` to run.

options:
  --json                   print list/show as JSON
  --name NAME              the shelf's display name (put; default: the slug)
  --description TEXT       what the shelf is for (put)
  --reason TEXT            why the companies belong on the shelf (add)
  --placed-by WHO          person (default) or agent (add)
  --budget N               most pages per crawl (crawl; default: WEBCORPUS_DEFAULT_BUDGET)
  --refresh                fetch pages already indexed again (crawl)
  --uncrawled              queue only members with no pages yet (crawl)
  -h, --help               show this help`;

export const VERIFY_USAGE = `usage: webcorpus verify [--domain DOMAIN] [--repair] [--json]`;

export const VERIFY_HELP = `${VERIFY_USAGE}

Check every domain's search shard against SQLite, the system of record (as PRAGMA
integrity_check checks a database): each stored chunk in its shard once, with its heading, text,
page version, facets and the vector SQLite holds (int8 codes, compared after the same
quantization); no chunk SQLite lacks; the shard files whole. Prints each domain's counts and
what differs (chunk ids are PAGE_ID#N). Exit status: 0 when every shard matches, 1 when one
differs (and was not repaired), 2 on a usage error or when --repair is refused.

Without --repair nothing is written: the database is opened read-only and the shard files are
read as a start would load them, damaged ones left where they are. It may run beside a server;
a page stored while it reads can then show as a difference that is only in flight: run it again,
or with the server stopped, before you act on one.

options:
  --domain DOMAIN   check this root domain only (default: every domain with pages or shard files)
  --repair          rebuild each shard that differs from SQLite (from nothing, as a start rebuilds
                    a damaged shard), then check again; vectors come from SQLite, the model is
                    never called (a chunk SQLite holds no vector for waits for \`serve\` to embed
                    it). Stop the server first: --repair takes an exclusive lock on the database
                    and refuses to start (exit 2) while another process (a server, a crawl) has it
                    open; a server started meanwhile waits, then fails to open it
  --json            print the report as JSON (one object: domains, differences, repaired)
  -h, --help        show this help`;
