/**
 * Example answers of the main endpoints, shown by Swagger UI beside each schema. A test checks
 * each one against its schema, so they cannot drift from what the API answers.
 */

import { BUCKET_REASONS, BUCKETS } from "../crawl/buckets.ts";

/** The ids the examples share (and the error examples name). */
export const exampleIds = {
  page: "pg_3f2a9c1d0b7e4a55",
  job: "job_019cc2b3e4f1a2b3c4d5",
  domain: "postgresql.org",
  slug: "databases",
} as const;

const facets = {
  type: "docs",
  format: "tutorial",
  audience: "developers",
  locale: "en-US",
  topics: ["databases"],
  technicality: 0.71,
  depth: 0.64,
  originality: 0.93,
  promotional: 0.12,
  has_code: true,
  words: 1840,
  published: "2026-03-02",
};

export const pageSummaryExample = {
  id: "pg_3f2a9c1d0b7e4a55",
  url: "https://www.postgresql.org/docs/15/sql-createindex.html",
  canonical_url: "https://www.postgresql.org/docs/15/sql-createindex.html",
  title: "CREATE INDEX",
  domain: "postgresql.org",
  description: "CREATE INDEX — define a new index",
  facets,
  metrics: { inlinks_body: 12 },
  fetched_at: "2026-11-25T21:49:11Z",
  indexed_at: "2026-11-25T21:49:11Z",
};

export const pageListExample = {
  data: [pageSummaryExample],
  total: 214,
  limit: 20,
  offset: 0,
  sort: "cited",
  filters: {
    applied: { domain: ["postgresql.org"], type: ["docs"], technicality_min: 0.5 },
    unrecognized: ["tecnicality_min"],
  },
};

export const pageExample = {
  ...pageSummaryExample,
  collections: ["databases"],
  markdown: "# CREATE INDEX\n\n## Synopsis\n\n```sql\nCREATE INDEX name ON table (column);\n```",
  hreflang: [],
  assets: [{ url: "https://www.postgresql.org/media/img/index.png", kind: "image", alt: "B-tree" }],
  screenshots: [
    {
      url: "/api/content/pg_3f2a9c1d0b7e4a55/screenshot.png",
      width: 1280,
      height: 800,
      taken_at: "2026-11-25T21:52:03Z",
    },
  ],
  history: [
    {
      fetched_at: "2026-11-25T21:49:11Z",
      status: 200,
      content_hash: "8c1f0e2b9d4a7c61",
      changed: true,
      job_id: "job_019cc2b3e4f1a2b3c4d5",
    },
  ],
  cited_by: [
    {
      id: "pg_77b1c0e2d3f4a5b6",
      url: "https://www.postgresql.org/docs/15/indexes.html",
      title: "Indexes",
      anchor_text: "CREATE INDEX",
    },
  ],
};

export const searchExample = {
  data: [
    {
      chunk_id: "pg_3f2a9c1d0b7e4a55#2",
      page_id: "pg_3f2a9c1d0b7e4a55",
      url: "https://www.postgresql.org/docs/15/sql-createindex.html",
      title: "CREATE INDEX",
      domain: "postgresql.org",
      heading: "CREATE INDEX > Description",
      text: "CREATE INDEX constructs an index on the specified column(s) of the specified relation…",
      score: 0.0325,
      ranks: { text: 3, vector: 1 },
    },
  ],
  query: "how do I create an index",
  mode: "hybrid",
  limit: 10,
  filters: { applied: { domain: ["postgresql.org"] }, unrecognized: [] },
};

const buckets = {
  indexed: 412,
  unchanged: 0,
  redirected: 6,
  duplicate: 3,
  robots: 0,
  noindex: 0,
  notHtml: 2,
  clientError: 1,
  serverError: 0,
  fetchError: 0,
  filtered: 4,
  pending: 0,
  budget: 758,
  stoppedEarly: 0,
  unaccounted: 0,
};

export const domainExample = {
  domain: "postgresql.org",
  coverage: {
    known: 1186,
    indexed: 412,
    job_id: "job_019cc2b3e4f1a2b3c4d5",
    job_state: "partial",
    scope: {
      kind: "domain",
      covers: "postgresql.org",
      include: [],
      exclude: [],
      label: "postgresql.org and its subdomains",
    },
    buckets,
    estimate: {
      low: 1131,
      high: 1188,
      confidence: 0.9,
      method: "confirmed pages; frontier x Wilson yield; sitemap/link capture-recapture (Chapman)",
      scope: "postgresql.org and its subdomains",
    },
    evidence: {
      confirmed_pages: 412,
      frontier_urls: 758,
      sitemap_urls: 1169,
      linked_urls: 1104,
      sitemap_and_linked: 1098,
      yield_sitemap: [0.991, 1],
      yield_other: [0.5, 0.91],
      yield_files: [0, 1],
      url_population: { method: "chapman", urls: 1175, low: 1175, high: 1178 },
      new_urls_per_page_recent: 0.08,
      corpus_pages: 412,
    },
  },
  health: {
    robots_txt: { status: "ok", checked_at: "2026-11-25T21:40:02Z" },
    entry_url: "https://www.postgresql.org/",
    fetched: 428,
    errors: { clientError: 1, serverError: 0, fetchError: 0 },
    error_rate: 0.002,
    median_response_s: 0.034,
    last_job: {
      id: "job_019cc2b3e4f1a2b3c4d5",
      state: "partial",
      created_at: "2026-11-25T21:40:00Z",
      finished_at: "2026-11-25T21:49:40Z",
      render: { mode: "auto", rendered: 0 },
    },
    last_job_state: "partial",
    search_index: { state: "ready", detail: null },
  },
  properties: [
    {
      locale: "en-US",
      root_url: "https://www.postgresql.org/docs/15/",
      pages: 412,
      sitemaps: ["https://www.postgresql.org/sitemap.xml"],
      hreflang_alternates: [],
    },
  ],
  sitemaps: [
    {
      url: "https://www.postgresql.org/sitemap.xml",
      url_count: 1169,
      status: "ok",
      last_modified: "2026-11-20T08:00:00Z",
      fetched_at: "2026-11-25T21:40:03Z",
    },
  ],
  changes: {
    job_id: "job_019cc2b3e4f1a2b3c4d5",
    previous_job_id: null,
    added: {
      count: 412,
      pages: [
        {
          id: "pg_3f2a9c1d0b7e4a55",
          url: "https://www.postgresql.org/docs/15/sql-createindex.html",
          title: "CREATE INDEX",
        },
      ],
    },
    removed: { count: 0, pages: [] },
    modified: { count: 0, pages: [] },
  },
  links_to: [{ domain: "wikipedia.org", links: 14, pages: 9, hosts: ["en.wikipedia.org"] }],
  collections: [{ slug: "databases", name: "Databases", reason: "open-source SQL engine" }],
};

export const facetListExample = {
  data: [
    {
      facet: "type",
      param: "type",
      kind: "vocabulary",
      values: [
        {
          value: "docs",
          pages: 388,
          definition: "product or technical documentation, guides, manuals",
        },
        { value: "blog", pages: 0, definition: "a post or the index of the company's blog" },
      ],
    },
    {
      facet: "has_code",
      param: "has_code",
      kind: "boolean",
      definition: "the main content shows at least one code block of code or commands",
      values: [
        { value: true, pages: 231 },
        { value: false, pages: 181 },
      ],
    },
    {
      facet: "technicality",
      param: "technicality_min",
      kind: "score",
      definition: "0 lay reader .. 1 specialist",
      values: [],
      range: [0, 1],
    },
  ],
  total: 12,
  limit: 12,
  offset: 0,
  sort: "facet",
  filters: { applied: { domain: ["postgresql.org"] }, unrecognized: [] },
  pages: 412,
};

const shelf = {
  slug: "databases",
  name: "Databases",
  description: "Companies behind SQL and NoSQL engines",
  companies: 3,
  crawled: 1,
  created_at: "2026-11-20T09:12:44Z",
};

export const memberExample = {
  domain: "postgresql.org",
  reason: "open-source SQL engine",
  placed_by: "person",
  placed_at: "2026-11-20T09:13:05Z",
  crawled: true,
  pages: 412,
};

export const shelfListExample = {
  data: [shelf],
  total: 1,
  limit: 1000,
  offset: 0,
  sort: "slug",
  filters: { applied: {}, unrecognized: [] },
};

export const shelfExample = {
  ...shelf,
  members: [
    memberExample,
    {
      domain: "sqlite.org",
      reason: "embedded SQL engine",
      placed_by: "agent",
      placed_at: "2026-11-21T16:40:10Z",
      crawled: false,
      pages: 0,
    },
  ],
};

export const crawlAcceptedExample = {
  job_id: exampleIds.job,
  state: "queued",
  domain: "postgresql.org",
};

const jobSummary = {
  id: exampleIds.job,
  domain: "postgresql.org",
  state: "running",
  params: { budget: 500, refresh: false, force: false, shots: 0 },
  created_at: "2026-11-25T21:40:00Z",
  started_at: "2026-11-25T21:40:01Z",
  finished_at: null,
  progress: {
    indexed: 212,
    pending: 38,
    discovered: 1104,
    fetched: 219,
    elapsed_s: 312.4,
    pages_per_min: 42.1,
    eta: { low_s: 380, high_s: 520, confidence: 0.8 },
    embedding_backlog: 96,
    phase: "fetching",
    embedded_chunks: 1830,
    chunks_per_s: 5.9,
    searchable: 188,
    searchable_per_min: 36.1,
  },
  cancel_requested: false,
  resumes: 0,
  error: null,
  render: {
    mode: "auto",
    rendered: 0,
    gained: 0,
    render_ms: 0,
    failed: [],
    refused: [],
    refused_total: 0,
  },
};

const bucketCounts: Readonly<Record<string, number>> = {
  indexed: 212,
  duplicate: 3,
  redirected: 4,
  pending: 38,
  budget: 847,
};

export const jobExample = {
  ...jobSummary,
  coverage: {
    total: 1104,
    buckets: Object.fromEntries(
      [...BUCKETS, "unaccounted" as const].map((name) => [
        name,
        {
          count: bucketCounts[name] ?? 0,
          reason:
            name === "unaccounted"
              ? "URLs known to the job but in no other bucket (always 0)"
              : BUCKET_REASONS[name],
          sample:
            name === "indexed" ? ["https://www.postgresql.org/docs/15/sql-createindex.html"] : [],
        },
      ]),
    ),
  },
};

/** A running job asked to stop: it stays running until its current fetches end. */
export const cancelRequestedJobExample = { ...jobExample, cancel_requested: true };

export const jobListExample = {
  data: [jobSummary],
  total: 1,
  limit: 20,
  offset: 0,
  sort: "created",
  filters: { applied: { domain: "postgresql.org" }, unrecognized: [] },
};

export const jobUrlListExample = {
  data: [
    {
      url: "https://www.postgresql.org/docs/15/sql-createindex.html",
      bucket: "indexed",
      reason: null,
      depth: 2,
      source: "sitemap",
      page_id: exampleIds.page,
      http_status: 200,
      target: null,
    },
    {
      url: "https://www.postgresql.org/docs/15/",
      bucket: "redirected",
      reason: "HTTP 301 to https://www.postgresql.org/docs/15/index.html",
      depth: 1,
      source: "link",
      page_id: null,
      http_status: 301,
      target: "https://www.postgresql.org/docs/15/index.html",
    },
  ],
  total: 1104,
  limit: 100,
  offset: 0,
  sort: "url",
  filters: { applied: {}, unrecognized: [] },
};

export const jsonRpcExample = {
  jsonrpc: "2.0",
  id: 1,
  result: {
    protocolVersion: "2025-06-18",
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name: "webcorpus", title: "webcorpus", version: "0.2.0" },
  },
};

export const pageMarkdownExample = `---
id: pg_3f2a9c1d0b7e4a55
url: https://www.postgresql.org/docs/15/sql-createindex.html
canonical_url: https://www.postgresql.org/docs/15/sql-createindex.html
title: CREATE INDEX
domain: postgresql.org
locale: en-US
type: docs
published: 2026-03-02
fetched_at: 2026-11-25T21:49:11Z
words: 1840
---

# CREATE INDEX

## Synopsis

\`\`\`sql
CREATE INDEX name ON table (column);
\`\`\`
`;

export const bundleMarkdownExample = `---
domain: postgresql.org
pages_included: 1
pages_left_out: 411
filters:
  limit: 1
  type:
    - docs
generated_at: 2026-11-26T08:00:00Z
---

# CREATE INDEX

Source: <https://www.postgresql.org/docs/15/sql-createindex.html>

## CREATE INDEX

### Synopsis

---

*1 pages of postgresql.org included; pages_left_out: 411 (raise limit or narrow the filters to see them).*
`;
