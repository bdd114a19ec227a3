/** Page metadata from the parsed tree: title, canonical, language, hreflang, robots, JSON-LD. */
import { type DomDocument, type DomElement, textOf, walkElements } from "./dom.ts";
import { UrlResolver } from "./urls.ts";

export interface PageMeta {
  /** The URL relative links resolve against (the page URL or its `<base href>`). */
  baseUrl: string;
  title: string | null;
  canonicalUrl: string | null;
  language: string | null;
  hreflang: [string, string][];
  description: string | null;
  noindex: boolean;
  nofollow: boolean;
  jsonldTypes: string[];
  /** The page's JSON-LD scripts, parsed (read again only when the extracted text is short). */
  jsonld: unknown[];
  ogType: string | null;
  generator: string | null;
  publishedRaw: string | null;
  /** The `datetime` of every `<time>` of the page, in order (a date when the metadata has none). */
  timeValues: string[];
}

const DATE_META = new Set([
  "article:published_time",
  "og:published_time",
  "datepublished",
  "dc.date",
  "dc.date.issued",
  "dcterms.created",
  "dcterms.issued",
  "date",
  "pubdate",
  "publishdate",
  "publication_date",
  "sailthru.date",
  "parsely-pub-date",
  "citation_publication_date",
]);

function clean(s: string | null | undefined): string | null {
  const t = (s ?? "").replace(/\s+/g, " ").trim();
  return t || null;
}

export function emptyMeta(baseUrl: string): PageMeta {
  return {
    baseUrl,
    title: null,
    canonicalUrl: null,
    language: null,
    hreflang: [],
    description: null,
    noindex: false,
    nofollow: false,
    jsonldTypes: [],
    jsonld: [],
    ogType: null,
    generator: null,
    publishedRaw: null,
    timeValues: [],
  };
}

/** Apply a robots directive list (meta robots or X-Robots-Tag value). */
export function applyRobots(meta: PageMeta, value: string): void {
  for (const raw of value.toLowerCase().split(/[,\s]+/)) {
    const token = raw.split(":").at(-1) ?? ""; // "googlebot: noindex" style
    if (token === "noindex" || token === "none") meta.noindex = true;
    if (token === "nofollow" || token === "none") meta.nofollow = true;
  }
}

function jsonldDate(obj: unknown, depth = 0): string | null {
  if (depth > 6 || obj === null || typeof obj !== "object") return null;
  if (Array.isArray(obj)) {
    for (const item of obj) {
      const found = jsonldDate(item, depth + 1);
      if (found) return found;
    }
    return null;
  }
  const rec = obj as Record<string, unknown>;
  for (const key of ["datePublished", "dateCreated"]) {
    const v = rec[key];
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return "@graph" in rec ? jsonldDate(rec["@graph"], depth + 1) : null;
}

/** A JSON-LD node's `@type` names without their vocabulary ("https://schema.org/Product" is
 * "Product"). */
export function jsonldTypeNames(rec: Readonly<Record<string, unknown>>): string[] {
  const t = rec["@type"];
  return (Array.isArray(t) ? t : [t])
    .filter((v): v is string => typeof v === "string" && v !== "")
    .map((v) => v.slice(v.lastIndexOf("/") + 1));
}

function jsonldTypes(obj: unknown, out: string[], depth = 0): void {
  if (depth > 6 || obj === null || typeof obj !== "object") return;
  if (Array.isArray(obj)) {
    for (const item of obj) jsonldTypes(item, out, depth + 1);
    return;
  }
  const rec = obj as Record<string, unknown>;
  for (const name of jsonldTypeNames(rec)) if (!out.includes(name)) out.push(name);
  if ("@graph" in rec) jsonldTypes(rec["@graph"], out, depth + 1);
}

function readMetaTag(meta: PageMeta, el: DomElement, og: { title: string | null }): void {
  const content = el.getAttribute("content");
  if (content === null) return;
  const name = (el.getAttribute("name") ?? el.getAttribute("property") ?? "").trim().toLowerCase();
  const equiv = (el.getAttribute("http-equiv") ?? "").trim().toLowerCase();
  if (name === "robots" || name === "googlebot" || name === "bingbot") applyRobots(meta, content);
  else if ((name === "description" || name === "og:description") && meta.description === null)
    meta.description = clean(content);
  else if (name === "og:type" && meta.ogType === null) meta.ogType = clean(content);
  else if (name === "og:title") og.title = clean(content);
  else if (DATE_META.has(name) && meta.publishedRaw === null)
    meta.publishedRaw = content.trim() || null;
  else if (
    meta.publishedRaw === null &&
    el.getAttribute("itemprop")?.trim().toLowerCase() === "datepublished"
  )
    meta.publishedRaw = content.trim() || null; // microdata: a forum's first post, an article
  else if (name === "generator" && meta.generator === null) meta.generator = clean(content);
  else if ((equiv === "content-language" || name === "content-language") && !meta.language)
    meta.language = clean(content.split(",")[0]);
}

function readLink(meta: PageMeta, el: DomElement, urls: UrlResolver): void {
  const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
  const href = el.getAttribute("href");
  if (!href?.trim()) return;
  if (rel.includes("canonical") && meta.canonicalUrl === null) {
    meta.canonicalUrl = urls.httpUrl(href);
  } else if (rel.includes("alternate") && el.getAttribute("hreflang")) {
    const url = urls.httpUrl(href);
    if (url) meta.hreflang.push([(el.getAttribute("hreflang") ?? "").trim(), url]);
  }
}

function readJsonLd(meta: PageMeta, el: DomElement): void {
  if ((el.getAttribute("type") ?? "").trim().toLowerCase() !== "application/ld+json") return;
  const raw = textOf(el).trim();
  if (!raw) return;
  try {
    const data: unknown = JSON.parse(raw);
    meta.jsonld.push(data);
    jsonldTypes(data, meta.jsonldTypes);
    meta.publishedRaw ??= jsonldDate(data);
  } catch {
    // Invalid JSON-LD is common; the page is still read.
  }
}

/** Read the page's metadata; `headers` are the response's (X-Robots-Tag, Content-Language). */
export function readMeta(
  doc: DomDocument,
  url: string,
  headers?: Readonly<Record<string, string>>,
): PageMeta {
  const root = doc.documentElement;
  const meta = emptyMeta(url);
  if (root === null) return meta;
  meta.language = clean(root.getAttribute("lang") ?? root.getAttribute("xml:lang"));
  const og = { title: null as string | null };
  // One walk of the tree: the first <base> (anywhere, as getElementsByTagName found it) is
  // noted on the way, and the <link>s, which resolve against it, are read after the walk.
  let baseEl: DomElement | undefined;
  const links: DomElement[] = [];
  walkElements(root, (el) => {
    switch (el.localName) {
      case "base":
        baseEl ??= el;
        break;
      case "title":
        meta.title ??= clean(textOf(el));
        break;
      case "meta":
        readMetaTag(meta, el, og);
        break;
      case "link":
        links.push(el);
        break;
      case "script":
        readJsonLd(meta, el);
        break;
      case "time": {
        const value = el.getAttribute("datetime");
        if (value) meta.timeValues.push(value);
        break;
      }
      case "svg":
        baseEl ??= el.getElementsByTagName("base")[0];
        return false; // an inline SVG's <title> is not the page's
    }
    return true;
  });
  const baseHref = baseEl?.getAttribute("href");
  const base = (baseHref && new UrlResolver(url).httpUrl(baseHref)) || url;
  meta.baseUrl = base;
  const urls = new UrlResolver(base);
  for (const el of links) readLink(meta, el, urls);
  meta.title ??= og.title;
  for (const [key, value] of Object.entries(headers ?? {})) {
    const k = key.toLowerCase();
    if (k === "x-robots-tag") applyRobots(meta, value);
    else if (k === "content-language" && !meta.language) meta.language = clean(value.split(",")[0]);
  }
  return meta;
}
