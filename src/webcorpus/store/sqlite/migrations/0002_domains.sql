-- Domain records: response times for health, discovery evidence for the page-count estimate.

-- Response time of the fetch that resolved a ledger row (milliseconds), and of each history row.
ALTER TABLE job_urls ADD COLUMN elapsed_ms REAL;
ALTER TABLE page_history ADD COLUMN elapsed_ms REAL;

-- How each URL of a job was found, independently of which way found it first (the ledger's
-- `source`): a URL listed in a sitemap and also linked from a fetched page has both flags. The
-- two lists are the two "captures" of the capture-recapture estimate of a site's size.
CREATE TABLE job_url_evidence (
    job_id TEXT NOT NULL,
    url TEXT NOT NULL,
    by_sitemap INTEGER NOT NULL DEFAULT 0,
    by_link INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, url)
) WITHOUT ROWID;

CREATE INDEX page_history_job ON page_history(job_id, page_id);
