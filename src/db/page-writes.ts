/**
 * Storing a page: its row, body, topics, assets, links, chunks, history and ledger state in one
 * transaction, so a crash leaves either all of it or none.
 *
 * The crawl's hot write path, as SQL prepared once per connection (bun:sqlite caches `query()`
 * statements by their text) and run once per row: drizzle's builder spent more main-thread CPU
 * building and preparing a page's statements (a Python docs page has ~550 link rows) than SQLite
 * spent running them. The column lists follow the drizzle schema (schema.ts); the store tests
 * read what these write back through drizzle.
 */
import type { Database } from "bun:sqlite";
import type { Db } from "./client.ts";

export interface LinkRow {
  readonly targetUrl: string;
  readonly targetPageId: string;
  readonly targetHost: string;
  readonly anchor: string;
  readonly position: "body" | "template";
  readonly internal: boolean;
}

export interface ChunkRow {
  readonly index: number;
  readonly heading: string;
  readonly text: string;
  readonly tokens: number;
  /** False: the page's vector policy gives this chunk no vector (stored embedded, text only). */
  readonly vectorWanted?: boolean;
}

export interface PageFacets {
  readonly type: string;
  readonly format: string;
  readonly audience: string;
  readonly locale: string | null;
  readonly topics: readonly string[];
  readonly technicality: number;
  readonly depth: number;
  readonly originality: number;
  readonly promotional: number;
  readonly hasCode: boolean;
  readonly words: number;
  readonly published: string | null;
  /** Why each facet was chosen (`explain=true`). */
  readonly explain: Readonly<Record<string, unknown>>;
}

export interface PageWrite {
  readonly id: string;
  readonly url: string;
  readonly canonicalUrl: string | null;
  readonly domain: string;
  readonly host: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly markdown: string;
  readonly contentHash: string;
  readonly textHash: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly httpStatus: number;
  readonly fetchedAt: string;
  readonly jobId: string;
  readonly declaredLanguage: string | null;
  readonly hreflang: readonly (readonly [string, string])[];
  readonly simhash: string | null;
  readonly facets: PageFacets;
  readonly assets: readonly { url: string; kind: string; alt: string }[];
  readonly links: readonly LinkRow[];
  readonly chunks: readonly ChunkRow[];
}

const now = () => Date.now() / 1000;

/** Columns of `pages` a page write sets (all but `inlinks_body`, which citations recompute). */
const PAGE_COLUMNS = [
  "id",
  "url",
  "canonical_url",
  "domain",
  "host",
  "title",
  "description",
  "content_hash",
  "text_hash",
  "etag",
  "last_modified",
  "http_status",
  "fetched_at",
  "indexed_at",
  "job_id",
  "declared_language",
  "hreflang",
  "simhash",
  "type",
  "format",
  "audience",
  "locale",
  "topics",
  "technicality",
  "depth",
  "originality",
  "promotional",
  "has_code",
  "words",
  "published",
] as const;

const SQL = {
  page: `INSERT INTO pages (${PAGE_COLUMNS.join(", ")}) VALUES (${PAGE_COLUMNS.map((_, i) => `?${i + 1}`).join(", ")})
    ON CONFLICT (id) DO UPDATE SET ${PAGE_COLUMNS.slice(1)
      .map((c) => `${c} = excluded.${c}`)
      .join(", ")}`,
  deleteTopics: "DELETE FROM page_topics WHERE page_id = ?1",
  deleteAssets: "DELETE FROM assets WHERE page_id = ?1",
  deleteChunks: "DELETE FROM chunks WHERE page_id = ?1",
  deleteLinks: "DELETE FROM links WHERE src_page_id = ?1",
  body: `INSERT INTO page_bodies (page_id, markdown, explain) VALUES (?1, ?2, ?3)
    ON CONFLICT (page_id) DO UPDATE SET markdown = excluded.markdown, explain = excluded.explain`,
  topic: "INSERT INTO page_topics (page_id, topic) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
  asset:
    "INSERT INTO assets (page_id, url, kind, alt) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
  link: `INSERT INTO links (src_page_id, target_url, target_page_id, target_host, anchor, position, internal)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING`,
  // A chunk the vector policy skips is not waiting for the model: stored embedded, no vector.
  chunk: `INSERT INTO chunks (page_id, idx, heading, text, tokens, job_id, embedded, vector_wanted)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
  history: `INSERT INTO page_history
    (page_id, job_id, fetched_at, status, content_hash, changed, etag, last_modified, elapsed_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
  indexed: `UPDATE job_urls SET bucket = 'indexed', reason = ?8, page_id = ?1,
    http_status = iif(?2, ?3, http_status), updated_at = ?4,
    elapsed_ms = coalesce(?7, elapsed_ms) WHERE job_id = ?5 AND url = ?6`,
  storedHash: "SELECT content_hash AS contentHash FROM pages WHERE id = ?1",
  touchPage: `UPDATE pages SET fetched_at = ?1, etag = coalesce(?2, etag),
    last_modified = coalesce(?3, last_modified) WHERE id = ?4`,
  unchanged: `UPDATE job_urls SET bucket = 'unchanged', reason = ?1, page_id = ?2,
    http_status = ?3, updated_at = ?4 WHERE job_id = ?5 AND url = ?6`,
} as const;

type Value = string | number | null;
const q = (c: Database, sql: string) => c.query<unknown, Value[]>(sql);
const bool = (b: boolean) => (b ? 1 : 0);

/**
 * Stores a page and marks `ledgerUrl` of its job `indexed`. `changed`: whether the text differs
 * from what was stored before (the history row says so); `fetched`: whether `ledgerUrl` itself
 * was fetched (its response time and status then go on its rows).
 */
export function savePage(
  db: Db,
  page: PageWrite,
  options: {
    ledgerUrl: string;
    changed: boolean;
    fetched: boolean;
    /** The fetch's response time, when `ledgerUrl` was fetched: on its ledger and history rows. */
    elapsedMs?: number | null;
    /** Why the page is stored as it is, when that needs saying (its ledger row's reason). */
    reason?: string | null;
  },
): void {
  const c = db.$client;
  const f = page.facets;
  const id = page.id;
  const elapsed = options.fetched ? (options.elapsedMs ?? null) : null;
  c.transaction(() => {
    q(c, SQL.page).run(
      id,
      page.url,
      page.canonicalUrl,
      page.domain,
      page.host,
      page.title,
      page.description,
      page.contentHash,
      page.textHash,
      page.etag,
      page.lastModified,
      page.httpStatus,
      page.fetchedAt,
      page.fetchedAt,
      page.jobId,
      page.declaredLanguage,
      JSON.stringify(page.hreflang),
      page.simhash,
      f.type,
      f.format,
      f.audience,
      f.locale,
      JSON.stringify(f.topics),
      f.technicality,
      f.depth,
      f.originality,
      f.promotional,
      bool(f.hasCode),
      f.words,
      f.published,
    );
    for (const sql of [SQL.deleteTopics, SQL.deleteAssets, SQL.deleteChunks, SQL.deleteLinks])
      q(c, sql).run(id);
    q(c, SQL.body).run(id, page.markdown, JSON.stringify(f.explain));
    const topic = q(c, SQL.topic);
    for (const t of f.topics) topic.run(id, t);
    const asset = q(c, SQL.asset);
    for (const a of page.assets) asset.run(id, a.url, a.kind, a.alt);
    const link = q(c, SQL.link);
    for (const l of page.links)
      link.run(
        id,
        l.targetUrl,
        l.targetPageId,
        l.targetHost,
        l.anchor,
        l.position,
        bool(l.internal),
      );
    const chunk = q(c, SQL.chunk);
    for (const ch of page.chunks) {
      const wanted = ch.vectorWanted !== false;
      chunk.run(
        id,
        ch.index,
        ch.heading,
        ch.text,
        ch.tokens,
        page.jobId,
        bool(!wanted),
        bool(wanted),
      );
    }
    q(c, SQL.history).run(
      id,
      page.jobId,
      page.fetchedAt,
      page.httpStatus,
      page.contentHash,
      bool(options.changed),
      page.etag,
      page.lastModified,
      elapsed,
    );
    q(c, SQL.indexed).run(
      id,
      bool(options.fetched),
      page.httpStatus,
      now(),
      page.jobId,
      options.ledgerUrl,
      elapsed,
      options.reason ?? null,
    );
  })();
}

/** A known page answered 304 or the same content: a history row, fresh validators, `unchanged`. */
export function recordUnchanged(
  db: Db,
  args: {
    pageId: string;
    jobId: string;
    ledgerUrl: string;
    status: number;
    fetchedAt: string;
    reason: string;
    etag: string | null;
    lastModified: string | null;
  },
): void {
  const c = db.$client;
  c.transaction(() => {
    const stored = c.query<{ contentHash: string }, [string]>(SQL.storedHash).get(args.pageId);
    q(c, SQL.history).run(
      args.pageId,
      args.jobId,
      args.fetchedAt,
      args.status,
      stored?.contentHash ?? null,
      0,
      args.etag,
      args.lastModified,
      null,
    );
    q(c, SQL.touchPage).run(args.fetchedAt, args.etag, args.lastModified, args.pageId);
    q(c, SQL.unchanged).run(
      args.reason,
      args.pageId,
      args.status,
      now(),
      args.jobId,
      args.ledgerUrl,
    );
  })();
}
