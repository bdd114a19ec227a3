/**
 * Three real documentation sites built from Debian packages, described for a loopback server
 * (doc-server.ts) that serves them straight from the unpacked tree: no copies. What a site adds
 * to the package (robots.txt, sitemaps, a home page) is generated in memory here; packaged
 * canonical links that point where nothing serves them are rewritten to the served http URL as
 * the page is served (Python's point at file:///usr/share/doc/..., the handbook's at https://).
 *
 * - `docs.python.org`: Python 3.11 docs at `/`. robots.txt disallows `/_sources/` and `/genindex`
 *   (the general-index pages: what robots excludes). `/sitemap.xml` is a sitemap index of gzipped
 *   children `/sitemaps/docs-N.xml.gz` listing every HTML page, the disallowed ones included.
 *   Aliases `python.org`, `www.python.org` answer 301 to it.
 * - `www.postgresql.org`: PostgreSQL 15 docs under `/docs/15/`, a generated home page at `/`.
 *   robots.txt disallows `/search/` (no page there); `/sitemap.xml` is one urlset. Alias
 *   `postgresql.org`.
 * - `debian-handbook.info`: the Debian Administrator's Handbook in every packaged language under
 *   `/browse/<lang>/stable/`, a generated root page linking each language (hreflang alternates),
 *   `/browse/stable/` answering 301 to `/browse/en-US/stable/`. robots.txt disallows `/get/`
 *   (linked from every book, no page there). `/sitemap.xml` indexes `/sitemaps/home.xml` and one
 *   `/sitemaps/<lang>.xml` per language. Alias `www.debian-handbook.info`.
 *
 * Page lists are read from the tree, never hard-coded: package versions drift.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensureDebianDocs, HANDBOOK_DOCS, POSTGRES_DOCS, PYTHON_DOCS } from "./debian-docs.ts";
import { handbookHome, postgresHome, robotsTxt, sitemapIndex, urlset } from "./site-files.ts";

export const PYTHON_HOST = "docs.python.org";
export const POSTGRES_HOST = "www.postgresql.org";
export const HANDBOOK_HOST = "debian-handbook.info";
const PYTHON_SITEMAP_CHUNK = 300;

/** A URL path prefix served from a directory of the unpacked tree. */
export interface Mount {
  readonly prefix: string;
  readonly dir: string;
  /** In HTML files: every `from` becomes `to` as the page is served. */
  readonly rewrite?: { readonly from: string; readonly to: string };
}

/** A file the site adds to the package, held in memory. */
export interface GeneratedFile {
  readonly body: Uint8Array;
  readonly type: string;
  readonly mtimeMs: number;
}

export interface DocSite {
  readonly host: string;
  /** Hosts answering 301 to `http://<host><same path>`. */
  readonly aliases: readonly string[];
  /** Exact path -> 301 target path. */
  readonly redirects: Readonly<Record<string, string>>;
  readonly mounts: readonly Mount[];
  readonly generated: ReadonlyMap<string, GeneratedFile>;
  /** Every HTML page served (generated home pages included), URL paths, sorted. */
  readonly pages: readonly string[];
  /** Sitemap paths: /sitemap.xml first, then its children. */
  readonly sitemaps: readonly string[];
  readonly robotsDisallow: readonly string[];
  /** Pages whose path robots.txt disallows. */
  readonly robotsExcluded: readonly string[];
  /** Pages a robots-respecting crawler may fetch. */
  readonly allowedPages: readonly string[];
  /** The handbook's book languages (empty elsewhere). */
  readonly languages: readonly string[];
}

export interface DocSites {
  /** The unpacked Debian tree. */
  readonly root: string;
  readonly python: DocSite;
  readonly postgres: DocSite;
  readonly handbook: DocSite;
  readonly all: readonly DocSite[];
}

export function siteUrl(site: DocSite, path = "/"): string {
  return `http://${site.host}${path}`;
}

/** Every host the sites answer, aliases included. */
export function allHosts(sites: DocSites): string[] {
  return sites.all.flatMap((s) => [s.host, ...s.aliases]);
}

const cache = new Map<string, DocSites>();

/** The three sites over the unpacked packages (fetched first into the cache dir if missing). */
export function docSites(cacheDir?: string): DocSites {
  const root = ensureDebianDocs(cacheDir);
  const known = cache.get(root);
  if (known) return known;
  const python = pythonSite(join(root, PYTHON_DOCS.html));
  const postgres = postgresSite(join(root, POSTGRES_DOCS.html));
  const handbook = handbookSite(join(root, HANDBOOK_DOCS.html));
  const sites: DocSites = { root, python, postgres, handbook, all: [python, postgres, handbook] };
  cache.set(root, sites);
  return sites;
}

/** Relative paths of the regular `.html` files under `top` (symlinks followed, broken skipped). */
export function htmlFiles(top: string, rel = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(top, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...htmlFiles(top, path));
    else if (entry.name.endsWith(".html")) {
      const stat = statSync(join(top, path), { throwIfNoEntry: false });
      if (stat?.isFile()) out.push(path);
    }
  }
  return out;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const mtimeOf = (file: string) => statSync(file).mtimeMs;

function describe(
  base: Omit<DocSite, "robotsExcluded" | "allowedPages" | "languages"> & {
    languages?: readonly string[];
  },
): DocSite {
  const excluded = base.pages.filter((p) => base.robotsDisallow.some((d) => p.startsWith(d)));
  const skip = new Set(excluded);
  return {
    ...base,
    languages: base.languages ?? [],
    robotsExcluded: excluded,
    allowedPages: base.pages.filter((p) => !skip.has(p)),
  };
}

function pythonSite(docs: string): DocSite {
  const pages = htmlFiles(docs)
    .map((rel) => `/${rel}`)
    .sort();
  const disallow = ["/_sources/", "/genindex"];
  const generated = new Map<string, GeneratedFile>();
  const children: string[] = [];
  for (let i = 0; i < pages.length; i += PYTHON_SITEMAP_CHUNK) {
    const path = `/sitemaps/docs-${children.length + 1}.xml.gz`;
    children.push(path);
    const chunk = pages.slice(i, i + PYTHON_SITEMAP_CHUNK);
    const xml = urlset(
      PYTHON_HOST,
      chunk.map((p) => [p, mtimeOf(join(docs, p))] as const),
    );
    generated.set(path, file(Bun.gzipSync(utf8(xml)), "application/gzip", docs));
  }
  generated.set("/sitemap.xml", file(utf8(sitemapIndex(PYTHON_HOST, children)), "xml", docs));
  generated.set("/robots.txt", file(utf8(robotsTxt(PYTHON_HOST, disallow)), "txt", docs));
  return describe({
    host: PYTHON_HOST,
    aliases: ["python.org", "www.python.org"],
    redirects: {},
    mounts: [
      {
        prefix: "/",
        dir: docs,
        rewrite: { from: "file:///usr/share/doc/python3.11/html/", to: `http://${PYTHON_HOST}/` },
      },
    ],
    generated,
    pages,
    sitemaps: ["/sitemap.xml", ...children],
    robotsDisallow: disallow,
  });
}

function postgresSite(docs: string): DocSite {
  const docPages = htmlFiles(docs)
    .map((rel) => `/docs/15/${rel}`)
    .sort();
  const disallow = ["/search/"];
  const generated = new Map<string, GeneratedFile>();
  const home = file(utf8(postgresHome()), "html", docs);
  generated.set("/index.html", home);
  const entries = [
    ["/", home.mtimeMs] as const,
    ...docPages.map((p) => [p, mtimeOf(join(docs, p.slice("/docs/15/".length)))] as const),
  ];
  generated.set("/sitemap.xml", file(utf8(urlset(POSTGRES_HOST, entries)), "xml", docs));
  generated.set("/robots.txt", file(utf8(robotsTxt(POSTGRES_HOST, disallow)), "txt", docs));
  return describe({
    host: POSTGRES_HOST,
    aliases: ["postgresql.org"],
    redirects: {},
    mounts: [{ prefix: "/docs/15/", dir: docs }],
    generated,
    pages: ["/", ...docPages],
    sitemaps: ["/sitemap.xml"],
    robotsDisallow: disallow,
  });
}

function handbookSite(books: string): DocSite {
  const langs = readdirSync(books, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const disallow = ["/get/"];
  const generated = new Map<string, GeneratedFile>();
  const home = file(utf8(handbookHome(langs)), "html", books);
  generated.set("/index.html", home);
  generated.set(
    "/sitemaps/home.xml",
    file(utf8(urlset(HANDBOOK_HOST, [["/", home.mtimeMs]])), "xml", books),
  );
  const pages = ["/"];
  const mounts: Mount[] = [];
  for (const lang of langs) {
    const prefix = `/browse/${lang}/stable/`;
    const dir = join(books, lang);
    const rels = htmlFiles(dir).sort();
    pages.push(...rels.map((rel) => `${prefix}${rel}`));
    const xml = urlset(
      HANDBOOK_HOST,
      rels.map((rel) => [`${prefix}${rel}`, mtimeOf(join(dir, rel))] as const),
    );
    generated.set(`/sitemaps/${lang}.xml`, file(utf8(xml), "xml", books));
    mounts.push({
      prefix,
      dir,
      rewrite: {
        from: `rel="canonical" href="https://${HANDBOOK_HOST}/`,
        to: `rel="canonical" href="http://${HANDBOOK_HOST}/`,
      },
    });
  }
  const children = ["/sitemaps/home.xml", ...langs.map((l) => `/sitemaps/${l}.xml`)];
  generated.set("/sitemap.xml", file(utf8(sitemapIndex(HANDBOOK_HOST, children)), "xml", books));
  generated.set("/robots.txt", file(utf8(robotsTxt(HANDBOOK_HOST, disallow)), "txt", books));
  return describe({
    host: HANDBOOK_HOST,
    aliases: [`www.${HANDBOOK_HOST}`],
    redirects: { "/browse/stable/": "/browse/en-US/stable/" },
    mounts,
    generated,
    pages: pages.sort(),
    sitemaps: ["/sitemap.xml", ...children],
    robotsDisallow: disallow,
    languages: langs,
  });
}

const TYPES: Readonly<Record<string, string>> = {
  html: "text/html",
  xml: "text/xml",
  txt: "text/plain",
};

/** A generated file dated like the package tree it stands beside. */
function file(body: Uint8Array, kind: string, dateFrom: string): GeneratedFile {
  return { body, type: TYPES[kind] ?? kind, mtimeMs: mtimeOf(dateFrom) };
}
