/** Page reads: the faceted list, one page with what hangs off it, facet counts. */
import { and, asc, count, desc, eq, gt, gte, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { collectionMembers, pages, pageTopics } from "./schema.ts";

export type PageRow = typeof pages.$inferSelect;

/** The page-list filters; every one maps to a stored column. */
export interface PageFilter {
  readonly domains: readonly string[];
  readonly collection: string | null;
  readonly types: readonly string[];
  readonly formats: readonly string[];
  readonly audiences: readonly string[];
  readonly locales: readonly string[];
  readonly topics: readonly string[];
  readonly technicalityMin: number | null;
  readonly depthMin: number | null;
  readonly originalityMin: number | null;
  readonly promotionalMax: number | null;
  readonly hasCode: boolean | null;
  readonly wordsMin: number | null;
  /** Published strictly after this date (YYYY-MM-DD). */
  readonly publishedAfter: string | null;
}

export type PageSort =
  | "cited"
  | "published"
  | "words"
  | "technicality"
  | "depth"
  | "originality"
  | "promotional"
  | "indexed";

const ORDER: Record<PageSort, SQL[]> = {
  cited: [desc(pages.inlinksBody), asc(pages.id)],
  published: [sql`${pages.published} IS NULL`, desc(pages.published), asc(pages.id)],
  words: [desc(pages.words), asc(pages.id)],
  technicality: [desc(pages.technicality), asc(pages.id)],
  depth: [desc(pages.depth), asc(pages.id)],
  originality: [desc(pages.originality), asc(pages.id)],
  promotional: [asc(pages.promotional), asc(pages.id)],
  indexed: [desc(pages.indexedAt), asc(pages.id)],
};

/** Pages of the companies on a shelf. */
export function inCollection(slug: string): SQL {
  return sql`${pages.domain} IN (SELECT ${collectionMembers.domain} FROM ${collectionMembers} WHERE ${collectionMembers.slug} = ${slug})`;
}

/** The WHERE clause of a page filter (undefined when nothing narrows). */
export function pageWhere(f: Partial<PageFilter>): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (f.domains?.length) where.push(inArray(pages.domain, [...f.domains]));
  if (f.collection) where.push(inCollection(f.collection));
  if (f.types?.length) where.push(inArray(pages.type, [...f.types]));
  if (f.formats?.length) where.push(inArray(pages.format, [...f.formats]));
  if (f.audiences?.length) where.push(inArray(pages.audience, [...f.audiences]));
  if (f.locales?.length) {
    where.push(
      or(
        ...f.locales.map((tag) =>
          or(
            sql`lower(${pages.locale}) = ${tag.toLowerCase()}`,
            sql`lower(${pages.locale}) LIKE ${`${tag.toLowerCase()}-%`}`,
          ),
        ),
      ),
    );
  }
  if (f.topics?.length) {
    where.push(
      inArray(
        pages.id,
        sql`(SELECT ${pageTopics.pageId} FROM ${pageTopics} WHERE ${inArray(pageTopics.topic, [...f.topics])})`,
      ),
    );
  }
  if (f.technicalityMin != null) where.push(gte(pages.technicality, f.technicalityMin));
  if (f.depthMin != null) where.push(gte(pages.depth, f.depthMin));
  if (f.originalityMin != null) where.push(gte(pages.originality, f.originalityMin));
  if (f.promotionalMax != null) where.push(lte(pages.promotional, f.promotionalMax));
  if (f.wordsMin != null) where.push(gte(pages.words, f.wordsMin));
  if (f.hasCode != null) where.push(eq(pages.hasCode, f.hasCode));
  if (f.publishedAfter) where.push(gt(pages.published, f.publishedAfter));
  const parts = where.filter((w): w is SQL => w !== undefined);
  return parts.length ? and(...parts) : undefined;
}

export function listPages(
  db: Db,
  filter: PageFilter,
  sort: PageSort,
  limit: number,
  offset: number,
): { rows: PageRow[]; total: number } {
  return sortedPages(db, pageWhere(filter), sort, limit, offset);
}

/** One page of the rows `where` selects, in `sort` order, and how many it selects in all. */
function sortedPages(
  db: Db,
  where: SQL | undefined,
  sort: PageSort,
  limit: number,
  offset: number,
): { rows: PageRow[]; total: number } {
  const total = db.select({ n: count() }).from(pages).where(where).get()?.n ?? 0;
  const rows = db
    .select()
    .from(pages)
    .where(where)
    .orderBy(...ORDER[sort])
    .limit(limit)
    .offset(offset)
    .all();
  return { rows, total };
}

/**
 * The filter's pages among `ranked` (page ids, best first, from the full-text engine), sorted by
 * that rank (`relevance`) or by another sort.
 */
export function listRankedPages(
  db: Db,
  filter: PageFilter,
  ranked: readonly string[],
  sort: PageSort | "relevance",
  limit: number,
  offset: number,
): { rows: PageRow[]; total: number } {
  if (ranked.length === 0) return { rows: [], total: 0 };
  const where = and(pageWhere(filter), inArray(pages.id, [...ranked]));
  if (sort !== "relevance") return sortedPages(db, where, sort, limit, offset);
  const rank = new Map(ranked.map((id, i) => [id, i]));
  const rows = db.select().from(pages).where(where).all();
  rows.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
  return { rows: rows.slice(offset, offset + limit), total: rows.length };
}

/** Pages per value of every facet, within the filter's scope; `pages` counts the scope. */
export function facetCounts(db: Db, scope: Partial<PageFilter>) {
  const where = pageWhere(scope);
  const by = (
    column: typeof pages.type | typeof pages.format | typeof pages.audience | typeof pages.locale,
  ) =>
    db
      .select({ value: column, n: count() })
      .from(pages)
      .where(where)
      .groupBy(column)
      .orderBy(desc(count()), asc(column))
      .all();
  const topics = db
    .select({ value: pageTopics.topic, n: count() })
    .from(pageTopics)
    .innerJoin(pages, eq(pages.id, pageTopics.pageId))
    .where(where)
    .groupBy(pageTopics.topic)
    .orderBy(desc(count()), asc(pageTopics.topic))
    .all();
  const code = db
    .select({ value: pages.hasCode, n: count() })
    .from(pages)
    .where(where)
    .groupBy(pages.hasCode)
    .all();
  return {
    pages: db.select({ n: count() }).from(pages).where(where).get()?.n ?? 0,
    type: by(pages.type),
    format: by(pages.format),
    audience: by(pages.audience),
    locale: by(pages.locale).filter((r) => r.value !== null),
    topics,
    hasCode: code,
  };
}

/** URL and title of pages by id (search hits carry them). */
export function pageHeads(
  db: Db,
  ids: readonly string[],
): Map<string, { url: string; title: string | null; type: string }> {
  if (ids.length === 0) return new Map();
  return new Map(
    db
      .select({ id: pages.id, url: pages.url, title: pages.title, type: pages.type })
      .from(pages)
      .where(inArray(pages.id, [...new Set(ids)]))
      .all()
      .map((r) => [r.id, { url: r.url, title: r.title, type: r.type }]),
  );
}
