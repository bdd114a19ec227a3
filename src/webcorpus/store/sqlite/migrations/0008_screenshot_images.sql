-- Screenshots are taken now: one per page (the latest), its PNG kept in the database beside the
-- page so a backup of the file holds everything. The old table was never written.
DROP TABLE screenshots;
CREATE TABLE screenshots (
    page_id TEXT PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    taken_at TEXT NOT NULL,
    job_id TEXT,
    png BLOB NOT NULL
);
