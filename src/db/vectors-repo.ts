/**
 * Chunk vectors in SQLite (`vectors`, keyed by model and embedded text: src/search/vector-codec.ts):
 * looked up before the model is asked, written in the transaction that marks their chunks
 * embedded, read back when a shard is rebuilt.
 */
import { inArray, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { chunks, vectors } from "./schema.ts";

/** Chunk ids per UPDATE (SQLite's bound-parameter limit is far above). */
const IDS_PER_QUERY = 500;

/** Stored vectors of `keys` that exist, by key (hex). */
export function storedVectors(db: Db, keys: readonly Uint8Array[]): Map<string, Buffer> {
  // One indexed lookup a key: as fast as IN lists of blobs, and no list to cut.
  const get = db.$client.prepare<{ vector: Uint8Array }, [Uint8Array]>(
    "SELECT vector FROM vectors WHERE key = ?1",
  );
  const out = new Map<string, Buffer>();
  for (const key of keys) {
    const hex = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("hex");
    if (out.has(hex)) continue;
    const row = get.get(key);
    if (row)
      out.set(hex, Buffer.from(row.vector.buffer, row.vector.byteOffset, row.vector.byteLength));
  }
  return out;
}

export interface ChunkVectorRow {
  /** `chunks.id`. */
  readonly chunkId: number;
  readonly key: Uint8Array;
  /** The stored form (vector-codec.ts). */
  readonly vector: Uint8Array;
}

/** Stores the vectors (once per key) and marks their chunks embedded, in one transaction. */
export function saveChunkVectors(db: Db, rows: readonly ChunkVectorRow[]): void {
  if (rows.length === 0) return;
  const client = db.$client;
  const insert = client.prepare<never, [Uint8Array, Uint8Array]>(
    "INSERT INTO vectors (key, vector) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING",
  );
  const idOf = client.prepare<{ id: number }, [Uint8Array]>(
    "SELECT id FROM vectors WHERE key = ?1",
  );
  const mark = client.prepare<never, [number, number]>(
    "UPDATE chunks SET embedded = 1, vector_id = ?1 WHERE id = ?2",
  );
  client.transaction(() => {
    for (const row of rows) {
      insert.run(row.key, row.vector);
      const id = idOf.get(row.key)?.id;
      if (id === undefined) throw new Error("a vector row vanished inside its transaction");
      mark.run(id, row.chunkId);
    }
  })();
}

/** Chunks whose vectors are lost and not stored: they wait for the model again. */
export function markChunksUnembedded(db: Db, chunkIds: readonly number[]): void {
  for (let i = 0; i < chunkIds.length; i += IDS_PER_QUERY) {
    db.update(chunks)
      .set({ embedded: false, vectorId: null })
      .where(inArray(chunks.id, chunkIds.slice(i, i + IDS_PER_QUERY)))
      .run();
  }
}

export interface UnstoredChunk {
  readonly id: number;
  readonly pageId: string;
  readonly idx: number;
  readonly heading: string;
  readonly text: string;
  readonly title: string | null;
}

/**
 * Up to `limit` chunks of the domain embedded before vectors were kept here (migration 0002):
 * their vectors are only in the shard (`chunks_unstored` finds them, empty afterwards). Chunks the
 * vector policy gives none are embedded without a vector too, and are not among them.
 */
export function unstoredChunks(db: Db, domain: string, limit: number): UnstoredChunk[] {
  return db.$client
    .query<UnstoredChunk, [string, number]>(
      `SELECT c.id, c.page_id AS pageId, c.idx, c.heading, c.text, p.title
       FROM chunks c INDEXED BY chunks_unstored JOIN pages p ON p.id = c.page_id
       WHERE c.embedded = 1 AND c.vector_id IS NULL AND c.vector_wanted = 1 AND p.domain = ?1
       LIMIT ?2`,
    )
    .all(domain, limit);
}

/** Whether any vector is stored (a rebuild without one has nothing to look up). */
export function anyStoredVector(db: Db): boolean {
  return db.select({ one: sql`1` }).from(vectors).limit(1).all().length > 0;
}

/**
 * Deletes vectors no chunk uses any more (their pages changed or went away); returns how many.
 * Run at start: until then a page stored again with the same texts finds its vectors.
 */
export function dropUnusedVectors(db: Db): number {
  return db.$client.run(
    "DELETE FROM vectors WHERE id NOT IN (SELECT vector_id FROM chunks WHERE vector_id IS NOT NULL)",
  ).changes;
}
