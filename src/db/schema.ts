/**
 * The store's schema, the system of record. Facets are columns of `pages`; chunks and their
 * vectors (`vectors`, by the text the model embedded) are kept here, and the Orama shards are
 * rebuilt from them without the model. drizzle-kit generates the
 * migrations in `src/db/migrations` from this file (`bun run db:generate`).
 */
import { sql } from "drizzle-orm";
import {
  blob,
  check,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";

export const meta = sqliteTable("meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  prefix: text("prefix").notNull(),
  keyHash: text("key_hash").notNull().unique(),
  scopes: text("scopes").notNull().default("read,write"),
  createdAt: text("created_at").notNull(),
  revokedAt: text("revoked_at"),
});

export const domains = sqliteTable("domains", {
  domain: text("domain").primaryKey(),
  createdAt: text("created_at").notNull(),
  entryUrl: text("entry_url"),
  robotsStatus: text("robots_status"),
  robotsCheckedAt: text("robots_checked_at"),
  lastJobId: text("last_job_id"),
});

export const JOB_STATES = [
  "queued",
  "running",
  "completed",
  "partial",
  "failed",
  "cancelled",
] as const;
export type JobState = (typeof JOB_STATES)[number];

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    domain: text("domain").notNull(),
    state: text("state", { enum: JOB_STATES }).notNull(),
    /** JSON: budget, refresh, force, shots. */
    params: text("params").notNull(),
    createdAt: text("created_at").notNull(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    error: text("error"),
    cancelRequested: integer("cancel_requested", { mode: "boolean" }).notNull().default(false),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: real("lease_expires_at"),
    fetched: integer("fetched").notNull().default(0),
    resumes: integer("resumes").notNull().default(0),
    keyId: text("key_id"),
    /** JSON: what the job learned that has no column (entry URL, screenshots report, …). */
    info: text("info").notNull().default("{}"),
  },
  (t) => [
    index("jobs_state").on(t.state, t.createdAt),
    index("jobs_domain").on(t.domain, t.createdAt),
    check(
      "jobs_state_check",
      sql`${t.state} IN ('queued','running','completed','partial','failed','cancelled')`,
    ),
  ],
);

/** The coverage ledger: one row per (job, URL); every bucket of a job is derived from it. */
export const jobUrls = sqliteTable(
  "job_urls",
  {
    jobId: text("job_id").notNull(),
    url: text("url").notNull(),
    bucket: text("bucket").notNull(),
    reason: text("reason"),
    depth: integer("depth").notNull().default(0),
    source: text("source").notNull().default("link"),
    priority: real("priority").notNull().default(0),
    pageId: text("page_id"),
    httpStatus: integer("http_status"),
    target: text("target"),
    lastmod: text("lastmod"),
    updatedAt: real("updated_at").notNull(),
    /** Response time of the fetch that resolved the row. */
    elapsedMs: real("elapsed_ms"),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.url] }),
    index("job_urls_bucket_age").on(t.jobId, t.bucket, t.updatedAt),
    index("job_urls_bucket_reason").on(t.jobId, t.bucket, t.reason),
    index("job_urls_fetched").on(t.jobId).where(sql`${t.httpStatus} IS NOT NULL`),
  ],
);

/**
 * How each URL of a job was found, whichever way found it first: the two "captures" of the
 * capture-recapture estimate of a site's size.
 */
export const jobUrlEvidence = sqliteTable(
  "job_url_evidence",
  {
    jobId: text("job_id").notNull(),
    url: text("url").notNull(),
    bySitemap: integer("by_sitemap", { mode: "boolean" }).notNull().default(false),
    byLink: integer("by_link", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.url] })],
);

export const pages = sqliteTable(
  "pages",
  {
    id: text("id").primaryKey(),
    url: text("url").notNull().unique(),
    canonicalUrl: text("canonical_url"),
    domain: text("domain").notNull(),
    host: text("host").notNull(),
    title: text("title"),
    description: text("description"),
    contentHash: text("content_hash").notNull(),
    textHash: text("text_hash").notNull(),
    etag: text("etag"),
    lastModified: text("last_modified"),
    httpStatus: integer("http_status").notNull(),
    fetchedAt: text("fetched_at").notNull(),
    indexedAt: text("indexed_at").notNull(),
    jobId: text("job_id"),
    declaredLanguage: text("declared_language"),
    /** JSON list of {lang, url} alternates. */
    hreflang: text("hreflang").notNull().default("[]"),
    /** 64-bit SimHash of the text, 16 hex digits. */
    simhash: text("simhash"),
    // facets
    type: text("type").notNull().default("other"),
    format: text("format").notNull().default("other"),
    audience: text("audience").notNull().default("general"),
    locale: text("locale"),
    /** JSON list; `page_topics` indexes it for filters. */
    topics: text("topics").notNull().default("[]"),
    technicality: real("technicality").notNull().default(0),
    depth: real("depth").notNull().default(0),
    originality: real("originality").notNull().default(1),
    promotional: real("promotional").notNull().default(0),
    hasCode: integer("has_code", { mode: "boolean" }).notNull().default(false),
    words: integer("words").notNull().default(0),
    published: text("published"),
    // metrics
    inlinksBody: integer("inlinks_body").notNull().default(0),
  },
  (t) => [
    index("pages_domain").on(t.domain, t.id),
    index("pages_cited").on(sql`${t.inlinksBody} DESC`, t.id),
    index("pages_indexed").on(sql`${t.indexedAt} DESC`, t.id),
    index("pages_text_hash").on(t.domain, t.textHash),
    index("pages_search").on(t.id, t.domain, t.type, t.locale, t.technicality),
  ],
);

/**
 * Page bodies and facet explanations, apart from `pages` so that list scans over facet columns
 * never walk the markdown (the reference measured lists 1.2-3.6 ms with it inline, 0.75-2.2
 * without, and a disk read of the corpus per list once it outgrows the page cache).
 */
export const pageBodies = sqliteTable("page_bodies", {
  pageId: text("page_id")
    .primaryKey()
    .references(() => pages.id, { onDelete: "cascade" }),
  markdown: text("markdown").notNull(),
  explain: text("explain").notNull().default("{}"),
});

export const pageTopics = sqliteTable(
  "page_topics",
  {
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    topic: text("topic").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.pageId, t.topic] }),
    index("page_topics_topic").on(t.topic, t.pageId),
  ],
);

export const pageHistory = sqliteTable(
  "page_history",
  {
    id: integer("id").primaryKey(),
    pageId: text("page_id").notNull(),
    jobId: text("job_id"),
    fetchedAt: text("fetched_at").notNull(),
    status: integer("status").notNull(),
    contentHash: text("content_hash"),
    changed: integer("changed", { mode: "boolean" }).notNull(),
    etag: text("etag"),
    lastModified: text("last_modified"),
    elapsedMs: real("elapsed_ms"),
  },
  (t) => [
    index("page_history_page").on(t.pageId, t.id),
    index("page_history_job").on(t.jobId, t.pageId),
  ],
);

export const assets = sqliteTable(
  "assets",
  {
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    kind: text("kind").notNull(),
    alt: text("alt").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.url] })],
);

/** One screenshot per page (the latest), its PNG beside the page so one file backs up all. */
export const screenshots = sqliteTable("screenshots", {
  pageId: text("page_id")
    .primaryKey()
    .references(() => pages.id, { onDelete: "cascade" }),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  takenAt: text("taken_at").notNull(),
  jobId: text("job_id"),
  png: blob("png", { mode: "buffer" }).notNull(),
});

/**
 * Chunks of each stored page, the system of record for the search shards: a shard can always be
 * rebuilt from here. `embedded` is set once the chunk's vector is durable in its shard, so the
 * embedding backlog of a job is a count over this table.
 */
export const chunks = sqliteTable(
  "chunks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    heading: text("heading").notNull().default(""),
    text: text("text").notNull(),
    tokens: integer("tokens").notNull().default(0),
    embedded: integer("embedded", { mode: "boolean" }).notNull().default(false),
    jobId: text("job_id"),
    /** The vector it was embedded with (`vectors.id`); null until then. */
    vectorId: integer("vector_id"),
    /** False when the page's vector policy (vector-policy.ts) gives it none: stored `embedded`
     * with no vector, searchable by text only. */
    vectorWanted: integer("vector_wanted", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [
    index("chunks_page").on(t.pageId, t.idx),
    index("chunks_pending").on(t.embedded, t.id),
    index("chunks_job").on(t.jobId, t.embedded),
    // Chunks embedded before migration 0002 (their vectors only in the shards): empty once the
    // indexer has copied them to `vectors`. Chunks the policy gives no vector are not among them.
    index("chunks_unstored")
      .on(t.id)
      .where(sql`${t.embedded} = 1 AND ${t.vectorId} IS NULL AND ${t.vectorWanted} = 1`),
  ],
);

/**
 * Vectors by the exact text the model embedded: `key` is a digest of the model's identity and the
 * text (src/search/vector-codec.ts), so identical texts are embedded once and another model never
 * reuses them; `vector` is the int8 codes and the fp32 scale, as a shard holds them.
 */
export const vectors = sqliteTable("vectors", {
  id: integer("id").primaryKey(),
  key: blob("key", { mode: "buffer" }).notNull().unique(),
  vector: blob("vector", { mode: "buffer" }).notNull(),
});

/** Outgoing links of each stored page, internal and external, with their position. */
export const links = sqliteTable(
  "links",
  {
    srcPageId: text("src_page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    targetUrl: text("target_url").notNull(),
    targetPageId: text("target_page_id").notNull(),
    targetHost: text("target_host").notNull(),
    anchor: text("anchor").notNull().default(""),
    /** `body` or `template` (navigation, header, footer, sidebars). */
    position: text("position").notNull(),
    internal: integer("internal", { mode: "boolean" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.srcPageId, t.targetUrl] }),
    index("links_target").on(t.targetPageId, t.position),
  ],
);

/** Site-wide template links per domain (a target and anchor on most of a site's pages). */
export const templateLinks = sqliteTable(
  "template_links",
  {
    domain: text("domain").notNull(),
    targetUrl: text("target_url").notNull(),
    anchor: text("anchor").notNull(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.targetUrl, t.anchor] })],
);

export const sitemaps = sqliteTable(
  "sitemaps",
  {
    domain: text("domain").notNull(),
    url: text("url").notNull(),
    jobId: text("job_id"),
    status: text("status").notNull(),
    urlCount: integer("url_count").notNull().default(0),
    lastModified: text("last_modified"),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.url] })],
);

export const collections = sqliteTable("collections", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  createdAt: text("created_at").notNull(),
});

export const PLACED_BY = ["person", "agent"] as const;

export const collectionMembers = sqliteTable(
  "collection_members",
  {
    slug: text("slug")
      .notNull()
      .references(() => collections.slug, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    reason: text("reason").notNull().default(""),
    placedBy: text("placed_by", { enum: PLACED_BY }).notNull(),
    placedAt: text("placed_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.slug, t.domain] }),
    index("collection_members_domain").on(t.domain),
    check("collection_members_placed_by", sql`${t.placedBy} IN ('person','agent')`),
  ],
);
