-- Page bodies (markdown) and facet explanations move out of `pages` into their own table. In
-- `pages` they sat before the facet columns, so any scan that read a facet (filtered and sorted
-- page lists, facet counts, domain records) followed every page's markdown through its overflow
-- pages: a page list read the whole corpus's markdown. On the 1,170-page PostgreSQL docs
-- (bench/list_queries.py, 64 MiB page cache, all in memory) lists took 1.2-3.6 ms this way and
-- 0.75-2.2 ms without; once the corpus outgrows the page cache, every list reads it from disk.
CREATE TABLE page_bodies (
    page_id TEXT PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
    markdown TEXT NOT NULL,
    explain TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO page_bodies(page_id, markdown, explain) SELECT id, markdown, explain FROM pages;
ALTER TABLE pages DROP COLUMN markdown;
ALTER TABLE pages DROP COLUMN explain;
