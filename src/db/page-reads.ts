/**
 * One page and what hangs off it (history, assets, screenshots, citing pages, shelves): the hot
 * path of page reads, as SQL prepared once per connection (bun:sqlite caches `query()`
 * statements by their text). Measured on the PostgreSQL docs corpus (1,169 pages), a page read
 * spent ~2 ms building and preparing drizzle queries on every request; drizzle's `.prepare()`
 * brought that to ~0.35 ms, and these statements, whose rows need no mapping, to ~0.2 ms (page
 * row 94-144 µs through drizzle, 46-76 µs here; cited_by 105-155 µs, 39 µs). The page row's
 * column list comes from the drizzle schema, so it follows schema changes.
 */
import { getTableColumns } from "drizzle-orm";
import type { Db } from "./client.ts";
import { pages } from "./schema.ts";

export type PageWithBody = typeof pages.$inferSelect & { markdown: string; explain: string };

const columns = Object.entries(getTableColumns(pages));
const BOOLEAN_KEYS = columns.filter(([, c]) => c.dataType === "boolean").map(([key]) => key);
const PAGE_SQL = `SELECT ${columns.map(([key, c]) => `p."${c.name}" AS "${key}"`).join(", ")},
  b.markdown AS markdown, b.explain AS explain
  FROM pages p JOIN page_bodies b ON b.page_id = p.id WHERE p.id = ?1`;

export function getPage(db: Db, pageId: string): PageWithBody | null {
  const row = db.$client.query<Record<string, unknown>, [string]>(PAGE_SQL).get(pageId);
  if (!row) return null;
  for (const key of BOOLEAN_KEYS) row[key] = row[key] === 1;
  return row as PageWithBody;
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
    .query<Omit<HistoryRow, "changed"> & { changed: number }, [string]>(
      `SELECT fetched_at, status, content_hash, changed, job_id FROM page_history
       WHERE page_id = ?1 ORDER BY id DESC LIMIT 100`,
    )
    .all(pageId);
  return rows.map((r) => ({ ...r, changed: r.changed === 1 }));
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

/** Pages citing this one from their body, site-wide template links excluded. */
export function citedBy(db: Db, pageId: string) {
  return db.$client
    .query<{ id: string; url: string; title: string | null; anchor_text: string }, [string]>(
      `SELECT p.id AS id, p.url AS url, p.title AS title, min(l.anchor) AS anchor_text
       FROM links l JOIN pages p ON p.id = l.src_page_id
       WHERE l.target_page_id = ?1 AND l.position = 'body' AND l.internal = 1
         AND l.src_page_id != ?1
         AND NOT EXISTS (SELECT 1 FROM template_links t
           WHERE t.domain = (SELECT domain FROM pages WHERE id = ?1)
             AND t.target_url = l.target_url AND t.anchor = l.anchor)
       GROUP BY p.id ORDER BY p.id`,
    )
    .all(pageId);
}

export function collectionsOfDomain(db: Db, domain: string): string[] {
  return db.$client
    .query<{ slug: string }, [string]>(
      "SELECT slug FROM collection_members WHERE domain = ?1 ORDER BY slug",
    )
    .all(domain)
    .map((r) => r.slug);
}
