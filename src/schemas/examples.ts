/**
 * Example answers of the main endpoints, shown by Swagger UI beside each schema. A test checks
 * each one against its schema, so they cannot drift from what the API answers.
 */

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
    buckets,
    estimate: {
      low: 1131,
      high: 1188,
      confidence: 0.9,
      method: "confirmed pages; frontier x Wilson yield; sitemap/link capture-recapture (Chapman)",
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
    },
    last_job_state: "partial",
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
