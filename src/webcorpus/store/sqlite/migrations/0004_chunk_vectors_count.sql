-- count(*) over chunk_vectors (checked by every vector-index refresh) reads this small index
-- instead of every vector blob.
CREATE INDEX IF NOT EXISTS chunk_vectors_count ON chunk_vectors(chunk_id);
