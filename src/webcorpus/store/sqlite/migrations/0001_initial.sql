-- webcorpus schema, SQLite backend. One statement list per migration; applied in order.

CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL DEFAULT 'read,write',
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

CREATE TABLE domains (
    domain TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    entry_url TEXT,
    robots_status TEXT,
    robots_checked_at TEXT,
    last_job_id TEXT
);

CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    domain TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued','running','completed','partial','failed','cancelled')),
    params TEXT NOT NULL,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    error TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_expires_at REAL,
    fetched INTEGER NOT NULL DEFAULT 0,
    resumes INTEGER NOT NULL DEFAULT 0,
    key_id TEXT,
    info TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX jobs_state ON jobs(state, created_at);
CREATE INDEX jobs_domain ON jobs(domain, created_at);

-- The coverage ledger: one row per (job, URL); buckets are derived from it.
CREATE TABLE job_urls (
    job_id TEXT NOT NULL,
    url TEXT NOT NULL,
    bucket TEXT NOT NULL,
    reason TEXT,
    depth INTEGER NOT NULL DEFAULT 0,
    source TEXT NOT NULL DEFAULT 'link',
    priority REAL NOT NULL DEFAULT 0,
    page_id TEXT,
    http_status INTEGER,
    target TEXT,
    lastmod TEXT,
    updated_at REAL NOT NULL,
    PRIMARY KEY (job_id, url)
) WITHOUT ROWID;
CREATE INDEX job_urls_bucket ON job_urls(job_id, bucket);

CREATE TABLE pages (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    canonical_url TEXT,
    domain TEXT NOT NULL,
    host TEXT NOT NULL,
    title TEXT,
    description TEXT,
    markdown TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    etag TEXT,
    last_modified TEXT,
    http_status INTEGER NOT NULL,
    fetched_at TEXT NOT NULL,
    indexed_at TEXT NOT NULL,
    job_id TEXT,
    declared_language TEXT,
    hreflang TEXT NOT NULL DEFAULT '[]',
    simhash INTEGER,
    -- facets
    type TEXT NOT NULL DEFAULT 'other',
    format TEXT NOT NULL DEFAULT 'other',
    audience TEXT NOT NULL DEFAULT 'general',
    locale TEXT,
    topics TEXT NOT NULL DEFAULT '[]',
    technicality REAL NOT NULL DEFAULT 0,
    depth REAL NOT NULL DEFAULT 0,
    originality REAL NOT NULL DEFAULT 1,
    promotional REAL NOT NULL DEFAULT 0,
    has_code INTEGER NOT NULL DEFAULT 0,
    words INTEGER NOT NULL DEFAULT 0,
    published TEXT,
    explain TEXT NOT NULL DEFAULT '{}',
    -- metrics
    inlinks_body INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX pages_domain ON pages(domain, id);
CREATE INDEX pages_cited ON pages(inlinks_body DESC, id);
CREATE INDEX pages_indexed ON pages(indexed_at DESC, id);
CREATE INDEX pages_text_hash ON pages(domain, text_hash);

CREATE TABLE page_topics (
    page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    topic TEXT NOT NULL,
    PRIMARY KEY (page_id, topic)
) WITHOUT ROWID;
CREATE INDEX page_topics_topic ON page_topics(topic, page_id);

CREATE TABLE page_history (
    id INTEGER PRIMARY KEY,
    page_id TEXT NOT NULL,
    job_id TEXT,
    fetched_at TEXT NOT NULL,
    status INTEGER NOT NULL,
    content_hash TEXT,
    changed INTEGER NOT NULL,
    etag TEXT,
    last_modified TEXT
);
CREATE INDEX page_history_page ON page_history(page_id, id);

CREATE TABLE assets (
    page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    kind TEXT NOT NULL,
    alt TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (page_id, url)
) WITHOUT ROWID;

CREATE TABLE screenshots (
    page_id TEXT NOT NULL,
    url TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    taken_at TEXT NOT NULL,
    PRIMARY KEY (page_id, url)
) WITHOUT ROWID;

-- Outgoing links of each stored page (internal and external).
CREATE TABLE links (
    src_page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    target_url TEXT NOT NULL,
    target_page_id TEXT NOT NULL,
    target_host TEXT NOT NULL,
    anchor TEXT NOT NULL DEFAULT '',
    position TEXT NOT NULL,
    internal INTEGER NOT NULL,
    PRIMARY KEY (src_page_id, target_url)
) WITHOUT ROWID;
CREATE INDEX links_target ON links(target_page_id, position);

CREATE TABLE chunks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    page_id TEXT NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    heading TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    tokens INTEGER NOT NULL DEFAULT 0,
    embedded INTEGER NOT NULL DEFAULT 0,
    job_id TEXT
);
-- Vectors of embedded chunks (float32 blobs); the model name and dimension are in meta.
CREATE TABLE chunk_vectors (
    chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
    vector BLOB NOT NULL
);
CREATE INDEX chunks_page ON chunks(page_id, idx);
CREATE INDEX chunks_pending ON chunks(embedded, id);
CREATE INDEX chunks_job ON chunks(job_id, embedded);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
    title, heading, text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
);

CREATE TABLE sitemaps (
    domain TEXT NOT NULL,
    url TEXT NOT NULL,
    job_id TEXT,
    status TEXT NOT NULL,
    url_count INTEGER NOT NULL DEFAULT 0,
    last_modified TEXT,
    fetched_at TEXT NOT NULL,
    PRIMARY KEY (domain, url)
) WITHOUT ROWID;

CREATE TABLE collections (
    slug TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);

CREATE TABLE collection_members (
    slug TEXT NOT NULL REFERENCES collections(slug) ON DELETE CASCADE,
    domain TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    placed_by TEXT NOT NULL CHECK (placed_by IN ('person','agent')),
    placed_at TEXT NOT NULL,
    PRIMARY KEY (slug, domain)
) WITHOUT ROWID;
CREATE INDEX collection_members_domain ON collection_members(domain);
