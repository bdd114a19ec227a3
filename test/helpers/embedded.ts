/** Marks chunks embedded through the store's own write path, each with a stored vector. */
import type { Db } from "../../src/db/client.ts";
import { saveChunkVectors } from "../../src/db/vectors-repo.ts";
import { encodeVector, vectorKey } from "../../src/search/vector-codec.ts";

export function markEmbedded(db: Db, chunkIds: readonly number[]): void {
  const unit = new Float32Array(384).fill(1 / Math.sqrt(384));
  saveChunkVectors(
    db,
    chunkIds.map((chunkId) => ({
      chunkId,
      key: vectorKey("test-model", `chunk ${chunkId}`),
      vector: encodeVector(unit),
    })),
  );
}
