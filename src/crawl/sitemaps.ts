/**
 * Sitemap parsing: XML urlset / sitemap index (any or no namespace), plain text, RSS and Atom,
 * gzip-compressed or not. No I/O: sitemap-reader.ts fetches, this module reads bytes.
 *
 * XML goes through htmlparser2's streaming parser in XML mode (linkedom's own parser, measured
 * against linkedom's DOM, sax and fast-xml-parser: test/bench/sitemap-parsers.ts): it reads
 * damaged files as far as they go, never loads a DTD or expands a declared entity (XXE and
 * billion-laughs safe), and stops at `maxUrls`. Entries are not filtered by host (robots.txt may
 * cross-submit; scope is the caller's decision); only non-http(s) locations are dropped, relative
 * ones resolved against the sitemap URL. `lastmod` is kept as an ISO date (YYYY-MM-DD).
 */
import { gunzipSync } from "node:zlib";
import { Parser } from "htmlparser2";

export type SitemapKind = "urlset" | "index" | "text" | "rss" | "atom" | "unknown";

export const MAX_SITEMAP_URLS = 50_000;
export const MAX_DECOMPRESSED_BYTES = 50 * 1024 * 1024; // sitemaps.org: 50 MB uncompressed

export interface SitemapEntry {
  readonly loc: string;
  readonly lastmod: string | null;
  /** `<priority>` (0..1) where the sitemap states one. */
  readonly priority?: number | null;
}

export interface SitemapParse {
  readonly url: string;
  kind: SitemapKind;
  readonly urls: SitemapEntry[];
  readonly children: string[];
  error: string | null;
  /** Stopped at maxUrls. */
  truncated: boolean;
}

/** Where to look for sitemaps when robots.txt names none (and beside the ones it names). */
export function defaultSitemapUrls(origin: string): string[] {
  const u = URL.parse(origin.trim());
  const base = u ? `${u.protocol}//${u.host}` : origin.replace(/\/+$/, "");
  return [`${base}/sitemap.xml`, `${base}/sitemap_index.xml`];
}

/** Decompresses gzip `body`; throws when corrupt or larger than `limit` (it stops there). */
export function gunzipCapped(body: Uint8Array, limit = MAX_DECOMPRESSED_BYTES): Uint8Array {
  try {
    return gunzipSync(body, { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new Error(`decompressed sitemap larger than ${limit} bytes`);
    }
    throw new Error(`corrupt gzip data: ${(err as Error).message}`);
  }
}

const MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split(" ");

function isoDate(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/**
 * A W3C datetime (`2024`, `2024-05`, `2024-05-06`, `2024-05-06T10:00:00Z`) or an RFC 822 date
 * (RSS) as `YYYY-MM-DD`, the day as written (no shift to UTC); null when absent or unreadable.
 */
export function parseLastmod(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  const w3c = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:$|T|\s)/.exec(text);
  if (w3c) return isoDate(Number(w3c[1]), Number(w3c[2] ?? 1), Number(w3c[3] ?? 1));
  const rfc = /(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{4})/.exec(text);
  const month = rfc ? MONTHS.indexOf((rfc[2] ?? "").toLowerCase()) + 1 : 0;
  return rfc && month ? isoDate(Number(rfc[3]), month, Number(rfc[1])) : null;
}

function absolute(loc: string | null | undefined, base: string): string | null {
  const text = loc?.trim();
  if (!text || /\s/.test(text)) return null;
  if (/^https?:\/\//i.test(text)) return text; // the reader normalizes (and drops what fails)
  const href = URL.parse(text, base)?.href;
  return href && /^https?:\/\//i.test(href) ? href : null;
}

const local = (name: string) => name.slice(name.lastIndexOf(":") + 1).toLowerCase();

const KINDS: Record<string, SitemapKind> = {
  urlset: "urlset",
  sitemapindex: "index",
  rss: "rss",
  rdf: "rss",
  feed: "atom",
};
/** The element that holds one entry, per root element. */
const RECORDS: Record<string, string> = {
  urlset: "url",
  sitemapindex: "sitemap",
  rss: "item",
  rdf: "item",
  feed: "entry",
};

/** A sitemap `<priority>` (sitemaps.org: 0.0 to 1.0), or null when absent or malformed. */
export function parsePriority(text: string | undefined): number | null {
  const t = text?.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
}

/** Reads one XML sitemap or feed with a streaming parser. */
function parseXml(text: string, result: SitemapParse, maxUrls: number): void {
  const seen = new Set<string>();
  let depth = 0;
  let root = "";
  let record: Record<string, string> | null = null; // fields of the open <url>/<item>/…
  let recordDepth = 0;
  let field: string | null = null;
  let sawEntities = false;
  let rootClosed = false;
  const add = (loc: string | undefined, lastmod: string | undefined, priority?: string) => {
    const href = absolute(loc, result.url);
    if (!href || seen.has(href)) return;
    if (seen.size >= maxUrls) {
      result.truncated = true;
      parser.pause();
      return;
    }
    seen.add(href);
    if (result.kind === "index") result.children.push(href);
    else {
      const stated = parsePriority(priority);
      const e = { loc: href, lastmod: parseLastmod(lastmod) };
      result.urls.push(stated === null ? e : { ...e, priority: stated });
    }
  };
  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (name.toLowerCase() === "!doctype" && /<!ENTITY/i.test(data)) sawEntities = true;
      },
      onopentag(raw, attrs) {
        const name = local(raw);
        depth++;
        if (depth === 1) {
          root = name;
          result.kind = KINDS[name] ?? "unknown";
        } else if (record === null && name === RECORDS[root]) {
          record = {};
          recordDepth = depth;
        } else if (record !== null && depth === recordDepth + 1) {
          field = name;
          // Atom: the entry's first alternate link (rel defaults to alternate).
          if (root === "feed" && name === "link" && record.link === undefined) {
            if ((attrs.rel ?? "alternate") === "alternate") record.link = attrs.href ?? "";
            field = null;
          }
        }
      },
      ontext(data) {
        if (record !== null && field !== null) record[field] = (record[field] ?? "") + data;
      },
      onclosetag(_name, implied) {
        if (depth === recordDepth + 1) field = null;
        if (record !== null && depth === recordDepth) {
          const r: Record<string, string> = record;
          record = null;
          if (root === "feed") add(r.link, r.updated ?? r.published);
          else if (result.kind === "rss") add(r.link, r.pubdate ?? r.date);
          else add(r.loc, r.lastmod, r.priority);
        }
        depth--;
        if (depth === 0) rootClosed = !implied; // end() closes what a truncated file left open
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  if (!root) result.error = "malformed XML: no root element";
  else if (result.kind === "unknown") result.error = `not a sitemap: root element <${root}>`;
  else if (!rootClosed && !result.truncated) {
    result.error = "malformed XML: the document ends before its root element closes";
  } else if (sawEntities) result.error = "malformed XML: entity declarations ignored";
}

function parseText(text: string, result: SitemapParse, maxUrls: number): void {
  result.kind = "text";
  const seen = new Set<string>();
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!/^https?:\/\//i.test(line)) continue;
    if (seen.size >= maxUrls) {
      result.truncated = true;
      break;
    }
    const href = absolute(line, result.url);
    if (href && !seen.has(href)) {
      seen.add(href);
      result.urls.push({ loc: href, lastmod: null });
    }
  }
  if (result.urls.length === 0) result.error = "no URLs found in text sitemap";
}

export interface ParseOptions {
  readonly maxUrls?: number;
  readonly maxDecompressedBytes?: number;
}

/** Parses one sitemap document. Never throws: problems are reported in `error`. */
export function parseSitemap(
  body: Uint8Array,
  url: string,
  options: ParseOptions = {},
): SitemapParse {
  const maxUrls = options.maxUrls ?? MAX_SITEMAP_URLS;
  const limit = options.maxDecompressedBytes ?? MAX_DECOMPRESSED_BYTES;
  const result: SitemapParse = {
    url,
    kind: "unknown",
    urls: [],
    children: [],
    error: null,
    truncated: false,
  };
  let bytes = body;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipCapped(bytes, limit);
    } catch (err) {
      result.error = (err as Error).message;
      return result;
    }
  } else if (bytes.byteLength > limit) {
    result.error = `sitemap larger than ${limit} bytes`;
    return result;
  }
  const text = new TextDecoder().decode(bytes).replace(/^\ufeff/, "");
  const head = text.slice(0, 512).trimStart();
  if (!head) result.error = "empty sitemap";
  else if (head.startsWith("<")) parseXml(text, result, maxUrls);
  else parseText(text, result, maxUrls);
  return result;
}
