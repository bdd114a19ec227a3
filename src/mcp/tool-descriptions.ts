/** What each MCP tool is for, when to use it and how large its answer is: read by the model. */

export const INSTRUCTIONS = `webcorpus serves an indexed corpus of company websites: pages as clean markdown with facets (type, format, audience, locale, topics, technicality, depth, originality, promotional, has_code, words, published) and per-domain records.
Typical flow: \`search\` (passages answering a question) or \`list_content\` (pages by facet filters) -> \`get_page_markdown\` for the text of a page you picked. \`list_facets\` gives the valid filter values. \`get_domain\` describes a crawled site; \`get_domain_markdown\` bundles its pages into one document. Shelves group companies: \`list_collections\`, \`get_collection\`.
With an API key (HTTP header \`Authorization: Bearer <key>\`): \`start_crawl\` indexes a new root domain (follow it with \`get_job\`), \`place_on_shelf\` files a company on a shelf.
Arguments mirror the HTTP API's parameters (GET /api/content, /api/search, …); a comma-list parameter takes a list of strings too. Results are the HTTP API's JSON. A failed call is a tool error whose structured content is the RFC 9457 problem document the HTTP API would send.`;

const KEY = "Needs an API key (HTTP header Authorization: Bearer <key>).";

export const DESCRIPTIONS = {
  search:
    "Search the corpus for passages that answer a question or mention a subject (hybrid full-text + semantic ranking, reciprocal rank fusion). Use it first when you have a question; use list_content instead to browse pages by facets. Returns up to `limit` passages (each ~1-2k characters: text, heading path, page_id, url, title, score), so a result of 10 is roughly 10-20k characters. Read a whole page with get_page_markdown(page_id).",
  list_content:
    "List pages filtered by facets (domain, shelf, type, format, audience, locale, topics, score thresholds, has_code, words, published date), sorted (cited, published, words, technicality, depth, originality, promotional, indexed). Use it to find pages of a kind, e.g. the most cited docs pages of a domain; use search for passages answering a question. Returns page metadata and facets without the text (~600 characters per page), `total` matches and paging by limit/offset; arguments it does not know are listed in filters.unrecognized. Valid facet values: list_facets.",
  get_page:
    "One page as JSON: url, canonical_url, title, domain, shelves, facets, inlinks_body, assets, screenshots, fetch history and the pages citing it (cited_by), plus its full markdown unless markdown=false. The markdown can be long (tens of thousands of characters): for the text alone, with a size limit, use get_page_markdown; for metadata alone pass markdown=false (~2-5k characters).",
  get_page_markdown:
    "The text of one page as markdown, starting with a YAML frontmatter block (id, url, canonical_url, title, domain, locale, type, published, fetched_at, words). Use it to read a page found with search or list_content. Returns at most max_chars characters (default 20000); `truncated` and `next_offset` say when there is more, and the text ends with a note saying how to get it.",
  get_domain:
    "The record of one crawled company domain: coverage (known and indexed pages, buckets, an estimate range of the site's total public pages), health (robots.txt, error rate, response time, last job), properties per language, sitemaps, changes since the previous crawl, domains it links to, and its shelves. Use it to judge how complete and fresh the corpus is for a company. A few thousand characters.",
  get_domain_markdown:
    "Many pages of one domain bundled into one markdown document: a frontmatter block (domain, pages_included, pages_left_out, filters), then each page, most cited first, as a level-1 heading with its source URL and body. Use it to read a company's site (or its docs: type=['docs'], technicality_min) in one go. Large: pass max_chars (default 20000) and page on with offset; `truncated` says when there is more.",
  list_collections:
    "The shelves (collections) that group companies: slug, name, description, number of companies and how many are crawled. Use the slug with get_collection, or as the `collection` filter of search and list_content. Small.",
  get_collection:
    "One shelf with its members: each company's domain, the reason it is on the shelf, who placed it (person or agent) and when, whether it is crawled and how many pages it has. About 200 characters per member.",
  get_job:
    "Status of a crawl job (as returned by start_crawl): state (queued, running, completed, partial, failed, cancelled), progress (indexed, pending, pages per minute, ETA range) and coverage buckets accounting for every URL found, with sample URLs. Poll it after start_crawl; a few thousand characters.",
  list_facets:
    "Every facet (type, format, audience, topics, locale, has_code, the scores, words, published) with its filter parameter, its values with one-line definitions and the number of pages per value, optionally counted within domains or a shelf. Call it before filtering search or list_content to use values that exist. About 10k characters.",
  start_crawl: `${KEY} Start crawling a company's root domain (e.g. example.com; its subdomains are included) to add its pages to the corpus. Returns at once with a job_id; follow it with get_job. A domain with an active job (queued or fetching; not one only embedding) is refused (conflict) naming that job. Small answer.`,
  place_on_shelf: `${KEY} Put a company (root domain, crawled or not) on an existing shelf (see list_collections) with the reason it belongs there; recorded as placed_by=agent. Placing it again updates the reason. Returns the membership as the HTTP API does, plus created (false when it was there already).`,
} as const;
