/**
 * The language properties of a site: one per language, with its root URL, pages, sitemaps and
 * the hreflang alternates its pages declare. Pure: the rows come from src/db.
 */
import { normalizeTag } from "../facets/bcp47.ts";

export interface Property {
  locale: string;
  root_url: string;
  pages: number;
  sitemaps: string[];
  hreflang_alternates: { hreflang: string; url: string }[];
}

export interface PropertyInputs {
  readonly domain: string;
  readonly pages: readonly { locale: string | null; url: string }[];
  readonly hreflang: readonly {
    locale: string | null;
    hreflang: string;
    url: string;
    pageUrl: string;
  }[];
  readonly sitemaps: readonly string[];
}

const HREFLANG_LIMIT = 100;
const ROOT_SHARE = 0.8;
const PATH_TAG = /^([a-z]{2,3})[-_]([a-z]{2}|[a-z]{4}[-_][a-z]{2})$/i;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

const language = (tag: string) => (tag.split("-")[0] ?? tag).toLowerCase();
const origin = (url: string) => parse(url)?.origin ?? url;
const host = (url: string) => parse(url)?.host ?? "";
const segments = (url: string) => (parse(url)?.pathname ?? "/").split("/");

function tokens(url: string): Set<string> {
  const u = parse(url);
  const text = u ? `${u.pathname}?${u.search.slice(1)}` : url;
  return new Set(
    text
      .split(/[/._?=&]+/)
      .filter(Boolean)
      .map((t) => t.toLowerCase()),
  );
}

/** A regional language tag named by one of the first three path segments (/de-DE/ …). */
function pathTag(url: string): string | null {
  for (const segment of segments(url).slice(1, 4)) {
    if (PATH_TAG.test(segment)) return normalizeTag(segment);
  }
  return null;
}

function inScope(url: string, domain: string): boolean {
  const h = parse(url)?.hostname.toLowerCase();
  return h !== undefined && (h === domain || h.endsWith(`.${domain}`));
}

function mostCommon<T>(items: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  let best: T | undefined;
  let bestN = 0;
  for (const item of items) {
    const n = (counts.get(item) ?? 0) + 1;
    counts.set(item, n);
    if (n > bestN) {
      best = item;
      bestN = n;
    }
  }
  return best;
}

/**
 * The root of a language property: when paths name the locale (/browse/de-DE/stable/), the
 * deepest directory most of those pages share; else the page an hreflang alternate names for
 * it; else the property's most common origin.
 */
function rootUrl(tag: string, urls: readonly string[], alternate: string | undefined): string {
  const lower = tag.toLowerCase();
  const named = urls.filter((u) => segments(u).some((s) => s.toLowerCase() === lower));
  if (named.length === 0 && alternate) return `${alternate.slice(0, alternate.lastIndexOf("/"))}/`;
  const pool = named.length > 0 ? named : urls;
  const top = mostCommon(pool.map(origin));
  if (top === undefined) return "";
  if (named.length === 0) return `${top}/`;
  const dirs = pool.filter((u) => origin(u) === top).map((u) => segments(u).slice(1, -1));
  const need = Math.max(1, Math.ceil(dirs.length * ROOT_SHARE));
  const prefix: string[] = [];
  for (;;) {
    const depth = prefix.length;
    const next = dirs
      .filter((d) => d.length > depth && prefix.every((p, i) => d[i] === p))
      .map((d) => d[depth] as string);
    const segment = mostCommon(next);
    if (segment === undefined || next.filter((s) => s === segment).length < need) break;
    prefix.push(segment);
  }
  return `${top}/${prefix.map((p) => `${p}/`).join("")}`;
}

const facetTag = (locale: string | null) =>
  locale && locale !== "und" ? normalizeTag(locale) : null;

/**
 * One property per language. A page belongs to the language its path names (/fr-FR/), else to
 * its locale facet. Languages that hreflang alternates of the site's pages name within the domain
 * are properties too, with the pages not crawled yet.
 */
export function properties(input: PropertyInputs): Property[] {
  const groups = new Map<string, string[]>();
  const group = (tag: string) => {
    const list = groups.get(tag) ?? [];
    groups.set(tag, list);
    return list;
  };
  for (const { locale, url } of input.pages) {
    group(pathTag(url) ?? facetTag(locale) ?? "und").push(url);
  }
  const alternates = new Map<string, string>();
  for (const row of input.hreflang) {
    const tag = normalizeTag(row.hreflang);
    if (tag && row.url && inScope(row.url, input.domain) && !alternates.has(tag)) {
      alternates.set(tag, row.url);
    }
  }
  for (const tag of alternates.keys()) group(tag);
  // A bare language tag joins the one regional property of that language, if there is one (a
  // site's root page saying lang="en" beside its /en-US/ book).
  const renamed = new Map<string, string>();
  for (const tag of [...groups.keys()].filter((t) => !t.includes("-") && t !== "und")) {
    const regional = [...groups.keys()].filter((t) => t.includes("-") && language(t) === tag);
    const target = regional.length === 1 ? regional[0] : undefined;
    if (target) {
      group(target).push(...(groups.get(tag) ?? []));
      groups.delete(tag);
      renamed.set(tag, target);
    }
  }
  if (groups.has("und") && groups.size > 1) groups.delete("und"); // too little text to tell

  const declared = new Map<string, Map<string, string>>();
  for (const row of input.hreflang) {
    let owner = pathTag(row.pageUrl) ?? facetTag(row.locale) ?? "und";
    owner = renamed.get(owner) ?? owner;
    const tag = normalizeTag(row.hreflang) ?? row.hreflang;
    const own = declared.get(owner) ?? new Map<string, string>();
    declared.set(owner, own);
    if (!own.has(tag)) own.set(tag, row.url);
  }

  const tagged = new Map<string, string[]>();
  const shared: string[] = [];
  for (const sitemap of input.sitemaps) {
    const toks = tokens(sitemap);
    const hits = [...groups.keys()].filter((t) => toks.has(t.toLowerCase()));
    for (const tag of hits) tagged.set(tag, [...(tagged.get(tag) ?? []), sitemap]);
    if (hits.length === 0) shared.push(sitemap);
  }
  const out: Property[] = [];
  for (const [tag, urls] of groups) {
    const root = rootUrl(tag, urls, alternates.get(tag));
    const own = tagged.get(tag) ?? shared.filter((s) => host(s) === host(root));
    const alts = [...(declared.get(tag) ?? new Map<string, string>())]
      .filter(([h]) => h.toLowerCase() !== tag.toLowerCase())
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, HREFLANG_LIMIT)
      .map(([hreflang, url]) => ({ hreflang, url }));
    out.push({
      locale: tag,
      root_url: root,
      pages: urls.length,
      sitemaps: [...own].sort(),
      hreflang_alternates: alts,
    });
  }
  out.sort((a, b) => b.pages - a.pages || (a.locale < b.locale ? -1 : a.locale > b.locale ? 1 : 0));
  return out;
}
