-- Narrow covering indexes for filtered search. A full-text hit is joined to its page through
-- chunks(id, page_id) and the page's filter columns are read from pages_search, so neither join
-- touches the wide rows (chunk text, page markdown); filtered_page_ids scans only pages_search.
CREATE INDEX IF NOT EXISTS chunks_id_page ON chunks(id, page_id);
CREATE INDEX IF NOT EXISTS pages_search ON pages(id, domain, type, locale, technicality);
