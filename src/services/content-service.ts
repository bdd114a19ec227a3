/** Pages: the faceted list, one page as JSON, one page as markdown with frontmatter. */

import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import {
  type BodyAs,
  getPage,
  pageExists,
  readPage,
  type SummaryRow,
  screenshotPng,
} from "../db/page-reads.ts";
import {
  listPages,
  listRankedPages,
  type PageFilter,
  type PageRow,
  type PageSort,
} from "../db/pages-repo.ts";
import { AUDIENCE_VALUES, FORMAT_VALUES, TOPIC_VALUES, TYPE_VALUES } from "../facets/vocabulary.ts";
import type { ContentSort } from "../schemas/params.ts";
import { requireShelf } from "./collections-service.ts";
import { invalidParam, notFound, notImplemented } from "./errors.ts";
import { withPrefix } from "./ids.ts";
import {
  applied,
  checkQ,
  parseCollection,
  parseDomains,
  parseLocales,
  parsePublishedAfter,
  splitList,
} from "./params.ts";
import type { PartialAnswer } from "./search-service.ts";

/** The raw arguments of a page list, as the HTTP query or the MCP tool gives them. */
export interface ContentArgs {
  q?: string;
  domain?: string;
  collection?: string;
  type?: string;
  format?: string;
  audience?: string;
  locale?: string;
  topics?: string;
  technicality_min?: number;
  depth_min?: number;
  originality_min?: number;
  promotional_max?: number;
  has_code?: boolean;
  words_min?: number;
  published_after?: string;
  sort?: ContentSort;
  limit?: number;
  offset?: number;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function facetsOf(row: SummaryRow) {
  return {
    type: row.type,
    format: row.format,
    audience: row.audience,
    locale: row.locale,
    topics: JSON.parse(row.topics) as string[],
    technicality: round3(row.technicality),
    depth: round3(row.depth),
    originality: round3(row.originality),
    promotional: round3(row.promotional),
    has_code: row.hasCode,
    words: row.words,
    published: row.published,
  };
}

function summary(row: SummaryRow) {
  return {
    id: row.id,
    url: row.url,
    canonical_url: row.canonicalUrl,
    title: row.title,
    domain: row.domain,
    description: row.description,
    facets: facetsOf(row),
    metrics: { inlinks_body: row.inlinksBody },
    fetched_at: row.fetchedAt,
    indexed_at: row.indexedAt,
  };
}

/** The page filter of the arguments and what `filters.applied` echoes. */
export function contentFilter(config: Config, args: ContentArgs) {
  const published = parsePublishedAfter(args.published_after);
  const filter: PageFilter = {
    domains: parseDomains(args.domain, config.allowPrivateSuffixes),
    collection: parseCollection(args.collection),
    types: splitList("type", args.type, TYPE_VALUES),
    formats: splitList("format", args.format, FORMAT_VALUES),
    audiences: splitList("audience", args.audience, AUDIENCE_VALUES),
    locales: parseLocales(args.locale),
    topics: splitList("topics", args.topics, TOPIC_VALUES),
    technicalityMin: args.technicality_min ?? null,
    depthMin: args.depth_min ?? null,
    originalityMin: args.originality_min ?? null,
    promotionalMax: args.promotional_max ?? null,
    hasCode: args.has_code ?? null,
    wordsMin: args.words_min ?? null,
    publishedAfter: published?.after ?? null,
  };
  const echo = applied({
    domain: filter.domains,
    collection: filter.collection,
    type: filter.types,
    format: filter.formats,
    audience: filter.audiences,
    locale: filter.locales,
    topics: filter.topics,
    technicality_min: filter.technicalityMin,
    depth_min: filter.depthMin,
    originality_min: filter.originalityMin,
    promotional_max: filter.promotionalMax,
    has_code: filter.hasCode,
    words_min: filter.wordsMin,
    published_after: published?.applied,
  });
  return { filter, applied: echo };
}

/**
 * Page ids matching `q` by full text, best first, within the filter's companies (at most
 * `MAX_Q_PAGES` of them), and whether a shard in scope is rebuilding; null when this server has
 * no search index.
 */
export type TextPages =
  | ((q: string, filter: PageFilter) => Promise<{ ids: string[]; partial: PartialAnswer | null }>)
  | null;

export async function listContent(
  db: Db,
  config: Config,
  args: ContentArgs,
  textPages: TextPages = null,
) {
  const q = checkQ(args.q);
  const sort = args.sort ?? (q ? "relevance" : "cited");
  if (sort === "relevance" && !q) throw invalidParam("sort", "relevance needs q");
  const { filter, applied: echo } = contentFilter(config, args);
  requireShelf(db, filter.collection);
  const limit = args.limit ?? 20;
  const offset = args.offset ?? 0;
  let result: { rows: PageRow[]; total: number };
  let partial: PartialAnswer | null = null;
  if (q) {
    if (!textPages)
      throw notImplemented("full-text q on /api/content on this server (it has no search index)");
    const ranked = await textPages(q, filter);
    partial = ranked.partial;
    result = listRankedPages(db, filter, ranked.ids, sort as PageSort | "relevance", limit, offset);
  } else {
    result = listPages(db, filter, sort as PageSort, limit, offset);
  }
  const { rows, total } = result;
  return {
    data: rows.map(summary),
    total,
    limit,
    offset,
    sort,
    applied: q ? { q, ...echo } : echo,
    ...(partial ? { partial } : {}),
  };
}

export const screenshotPath = (pageId: string) => `/api/content/${pageId}/screenshot.png`;

interface PageOptions {
  markdown?: boolean;
  explain?: boolean;
}

type PageRead = NonNullable<ReturnType<typeof readPage>>;

function loadPage(db: Db, id: string, body: BodyAs, options: PageOptions) {
  const pid = withPrefix("pg_", id).toLowerCase();
  const page = readPage(db, pid, options.markdown === false ? "none" : body, !!options.explain);
  if (!page) throw notFound(`page ${pid}`);
  return { pid, page };
}

/** The lists after the body and its facet signals, in the contract's order. */
const pageLists = (pid: string, page: PageRead) => ({
  hreflang: (JSON.parse(page.row.hreflang) as [string, string][]).map(([hreflang, url]) => ({
    hreflang,
    url,
  })),
  assets: page.assets,
  screenshots: page.screenshots.map((s) => ({ url: screenshotPath(pid), ...s })),
  history: page.history,
  cited_by: page.citedBy,
});

const explained = (row: PageRead["row"], options: PageOptions) =>
  options.explain ? { explain: JSON.parse(row.explain) as Record<string, unknown> } : {};

/** One page as the contract's object (the MCP tool; HTTP answers `pageJson`). */
export function pageView(db: Db, id: string, options: PageOptions = {}) {
  const { pid, page } = loadPage(db, id, "text", options);
  const { row } = page;
  return {
    ...summary(row),
    collections: page.collections,
    ...(options.markdown === false ? {} : { markdown: row.markdown }),
    ...explained(row, options),
    ...pageLists(pid, page),
  };
}

/**
 * `pageView` as the HTTP API answers it: serialised in the field order of the response schema
 * (`Page`, which Elysia's response check used to impose on the object), with the body quoted by
 * SQLite and spliced in, never decoded and escaped again by `JSON.stringify` (bodies are 6.7 k
 * characters on average on the PostgreSQL docs corpus: ~18 µs of `JSON.stringify` against ~7 µs
 * more in SQLite).
 */
export function pageJson(db: Db, id: string, options: PageOptions = {}): string {
  const { pid, page } = loadPage(db, id, "json", options);
  const { row } = page;
  const { facets, metrics, fetched_at, indexed_at } = summary(row);
  const head = JSON.stringify({
    id: row.id,
    url: row.url,
    canonical_url: row.canonicalUrl,
    title: row.title,
    description: row.description,
    domain: row.domain,
    collections: page.collections,
    facets,
    metrics,
  });
  const tail = JSON.stringify({
    ...explained(row, options),
    fetched_at,
    indexed_at,
    ...pageLists(pid, page),
  });
  const body = options.markdown === false ? "" : `,"markdown":${row.markdown}`;
  return `${head.slice(0, -1)}${body},${tail.slice(1)}`;
}

/** The page as markdown behind a YAML frontmatter that keeps it attributable. */
export function pageMarkdown(db: Db, id: string): string {
  const pid = withPrefix("pg_", id).toLowerCase();
  const row = getPage(db, pid);
  if (!row) throw notFound(`page ${pid}`);
  return pageWithFrontmatter(
    {
      id: row.id,
      url: row.url,
      canonical_url: row.canonicalUrl,
      title: row.title,
      domain: row.domain,
      locale: row.locale,
      type: row.type,
      published: row.published,
      fetched_at: row.fetchedAt,
      words: row.words,
    },
    row.markdown,
  );
}

/** What a page's markdown is headed with, so it stays attributable when pasted elsewhere. */
export interface PageFrontmatter {
  id: string;
  url: string;
  canonical_url: string | null;
  title: string | null;
  domain: string;
  locale: string | null;
  type: string;
  published: string | null;
  fetched_at: string;
  words: number;
  /** POST /api/fetch with `store: true`: the job storing the page. */
  job_id?: string;
}

/** A page's markdown behind its YAML frontmatter block (/api/content/{id}.md, /api/fetch). */
export function pageWithFrontmatter(front: PageFrontmatter, markdown: string): string {
  return `---\n${Bun.YAML.stringify(front, null, 2).trimEnd()}\n---\n\n${markdown.trimEnd()}\n`;
}

export function pageScreenshot(db: Db, id: string): Uint8Array {
  const pid = withPrefix("pg_", id).toLowerCase();
  const png = screenshotPng(db, pid);
  if (png) return png;
  if (!pageExists(db, pid)) throw notFound(`page ${pid}`);
  throw notFound(`a screenshot of page ${pid} (crawl with shots to take one)`);
}
