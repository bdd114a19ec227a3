-- Site-wide template links per domain, kept when citations are recomputed, so page reads
-- exclude them from cited_by without recomputing them.
CREATE TABLE template_links (
    domain TEXT NOT NULL,
    target_url TEXT NOT NULL,
    anchor TEXT NOT NULL,
    PRIMARY KEY (domain, target_url, anchor)
) WITHOUT ROWID;
