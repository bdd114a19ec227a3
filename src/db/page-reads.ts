/**
 * One page and what hangs off it (history, assets, screenshots, citing pages, shelves): the hot
 * path of page reads, as SQL prepared once per connection (bun:sqlite caches `query()`
 * statements by their text) and run inside one read transaction. Measured on the PostgreSQL docs
 * corpus (1,169 pages, `bun test/bench/api-load.ts`):
 * - drizzle built and prepared its queries on every request (~2 ms a read); these statements,
 *   whose rows need no mapping, brought a page read to ~0.2 ms of SQL;
 * - each statement outside a transaction opens and closes its own read transaction (locks and
 *   the WAL index: ~2.5 µs a statement even when it finds nothing); one transaction for the six
 *   statements of a page read saves ~12 µs and gives them one snapshot;
 * - the page row joined to its body cost 34-47 µs; the body as a scalar subquery, 14 µs;
 * - the summary columns come from the drizzle schema (`SUMMARY_COLUMNS`), so they follow its
 *   changes; lists select the same columns (pages-repo.ts).
 */
import type { Database } from "bun:sqlite";
import { getTableColumns } from "drizzle-orm";
import type { Db } from "./client.ts";
import { pages } from "./schema.ts";

type PageColumns = typeof pages.$inferSelect;

const SUMMARY_KEYS = [
  "id",
  "url",
  "canonicalUrl",
  "title",
  "domain",
  "description",
  "type",
  "format",
  "audience",
  "locale",
  "topics",
  "technicality",
  "depth",
  "originality",
  "promotional",
  "hasCode",
  "words",
  "published",
  "inlinksBody",
  "fetchedAt",
  "indexedAt",
] as const satisfies readonly (keyof PageColumns)[];

/** The columns of a page summary (lists, search hits, page reads), keyed as in the schema. */
export type SummaryRow = Pick<PageColumns, (typeof SUMMARY_KEYS)[number]>;

const COLUMNS = getTableColumns(pages);

/** `p."column" AS "key", …` for the summary columns (and `extra` keys) of `pages` as `alias`. */
export function summaryColumns(alias: string, extra: readonly (keyof PageColumns)[] = []): string {
  return [...SUMMARY_KEYS, ...extra]
    .map((key) => `${alias}."${COLUMNS[key].name}" AS "${key}"`)
    .join(", ");
}

/** SQLite answers 0/1 for boolean columns; the rows of `summaryColumns` get real booleans. */
export function fixBooleans<T extends { hasCode: unknown }>(row: T): T {
  row.hasCode = row.hasCode === 1;
  return row;
}

const snapshots = new WeakMap<Database, (run: () => unknown) => unknown>();

/**
 * Runs `read` inside one read transaction of the connection: one snapshot for its statements,
 * and the locks taken once instead of once per statement. Nested in a transaction already open
 * on the connection (the in-memory store shares its writer), it becomes a savepoint.
 */
export function inSnapshot<T>(db: Db, read: () => T): T {
  const client = db.$client;
  let run = snapshots.get(client);
  if (!run) {
    run = client.transaction((fn: () => unknown) => fn());
    snapshots.set(client, run);
  }
  return run(read) as T;
}

/**
 * How a page read wants the body: `text` (the markdown), `json` (the markdown as a JSON string
 * literal, quoted by SQLite: the same bytes as `JSON.stringify` for any text SQLite holds, and
 * cheaper than reading the text and escaping it again in JS) or `none` (an empty string; the page
 * still needs a body).
 */
export type BodyAs = "text" | "json" | "none";

export interface PageRecord extends SummaryRow {
  /** JSON list of [hreflang, url] pairs. */
  hreflang: string;
  /** The markdown as `BodyAs` asked. */
  markdown: string;
  /** JSON object; "{}" unless asked for. */
  explain: string;
}

const BODY: Record<BodyAs, string> = {
  text: "markdown",
  json: "json_quote(markdown)",
  none: "''",
};

const pageSql = (body: BodyAs, explain: boolean) =>
  `SELECT ${summaryColumns("p", ["hreflang"])},
  (SELECT ${BODY[body]} FROM page_bodies WHERE page_id = ?1) AS markdown,
  ${explain ? "(SELECT explain FROM page_bodies WHERE page_id = ?1)" : "'{}'"} AS explain
  FROM pages p WHERE p.id = ?1`;
const PAGE_SQL: Record<`${BodyAs} ${boolean}`, string> = {
  "text false": pageSql("text", false),
  "text true": pageSql("text", true),
  "json false": pageSql("json", false),
  "json true": pageSql("json", true),
  "none false": pageSql("none", false),
  "none true": pageSql("none", true),
};

/**
 * The page row with its body as asked (and the signals of its facets with `explain`); null when
 * there is no such page or it has no body.
 */
export function getPage(
  db: Db,
  pageId: string,
  body: BodyAs = "text",
  explain = false,
): PageRecord | null {
  const row = db.$client
    .query<Omit<PageRecord, "markdown"> & { markdown: string | null }, [string]>(
      PAGE_SQL[`${body} ${explain}`],
    )
    .get(pageId);
  return row && row.markdown !== null ? fixBooleans(row as PageRecord) : null;
}

export function pageExists(db: Db, pageId: string): boolean {
  return db.$client.query("SELECT 1 FROM pages WHERE id = ?1").get(pageId) !== null;
}

export interface HistoryRow {
  fetched_at: string;
  status: number;
  content_hash: string | null;
  changed: boolean;
  job_id: string | null;
}

export function pageHistoryOf(db: Db, pageId: string): HistoryRow[] {
  const rows = db.$client
    .query<Omit<HistoryRow, "changed"> & { changed: number | boolean }, [string]>(
      `SELECT fetched_at, status, content_hash, changed, job_id FROM page_history
       WHERE page_id = ?1 ORDER BY id DESC LIMIT 100`,
    )
    .all(pageId);
  for (const row of rows) row.changed = row.changed === 1;
  return rows as HistoryRow[];
}

export function pageAssets(db: Db, pageId: string) {
  return db.$client
    .query<{ url: string; kind: string; alt: string }, [string]>(
      "SELECT url, kind, alt FROM assets WHERE page_id = ?1 ORDER BY url",
    )
    .all(pageId);
}

export function pageScreenshots(db: Db, pageId: string) {
  return db.$client
    .query<{ width: number; height: number; taken_at: string }, [string]>(
      "SELECT width, height, taken_at FROM screenshots WHERE page_id = ?1",
    )
    .all(pageId);
}

export function screenshotPng(db: Db, pageId: string): Uint8Array | null {
  return (
    db.$client
      .query<{ png: Uint8Array }, [string]>("SELECT png FROM screenshots WHERE page_id = ?1")
      .get(pageId)?.png ?? null
  );
}

export interface CitingPage {
  id: string;
  url: string;
  title: string | null;
  anchor_text: string;
}

/** SQLite's BINARY order of text (its UTF-8 bytes), which `<` on UTF-16 strings is not. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * Pages citing this one from their body, site-wide template links excluded: one per citing page
 * (its least anchor), by page id. The grouping and ordering are done here: SQLite's temporary
 * b-trees for them cost more than the few rows they sort (GROUP BY p.id ORDER BY p.id: 63 µs a
 * page against 49 µs without, on the PostgreSQL docs corpus, ~5 citing links a page).
 */
export function citedBy(db: Db, pageId: string, domain?: string): CitingPage[] {
  const rows = db.$client
    .query<CitingPage, [string, string | null]>(
      `SELECT l.src_page_id AS id, p.url AS url, p.title AS title, l.anchor AS anchor_text
       FROM links l JOIN pages p ON p.id = l.src_page_id
       WHERE l.target_page_id = ?1 AND l.position = 'body' AND l.internal = 1
         AND l.src_page_id != ?1
         AND NOT EXISTS (SELECT 1 FROM template_links t
           WHERE t.domain = coalesce(?2, (SELECT domain FROM pages WHERE id = ?1))
             AND t.target_url = l.target_url AND t.anchor = l.anchor)`,
    )
    .all(pageId, domain ?? null);
  if (rows.length < 2) return rows;
  const byPage = new Map<string, CitingPage>();
  for (const row of rows) {
    const seen = byPage.get(row.id);
    if (!seen) byPage.set(row.id, row);
    else if (byteOrder(row.anchor_text, seen.anchor_text) < 0) seen.anchor_text = row.anchor_text;
  }
  // Page ids are ASCII (pg_ and hex digits): code-unit order is byte order.
  return [...byPage.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The shelves holding a company, by slug (ASCII: sorted here, a SQLite sorter costs ~3 µs). */
export function collectionsOfDomain(db: Db, domain: string): string[] {
  return db.$client
    .query<{ slug: string }, [string]>("SELECT slug FROM collection_members WHERE domain = ?1")
    .all(domain)
    .map((r) => r.slug)
    .sort();
}

/** A page and everything a page read shows of it, from one snapshot; null when there is none. */
export function readPage(db: Db, pageId: string, body: BodyAs, explain: boolean) {
  return inSnapshot(db, () => {
    const row = getPage(db, pageId, body, explain);
    if (!row) return null;
    return {
      row,
      collections: collectionsOfDomain(db, row.domain),
      assets: pageAssets(db, pageId),
      screenshots: pageScreenshots(db, pageId),
      history: pageHistoryOf(db, pageId),
      citedBy: citedBy(db, pageId, row.domain),
    };
  });
}
