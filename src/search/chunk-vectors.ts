/**
 * Chunk vectors from SQLite first, the model second: the vectors of a batch of chunks waiting
 * for them (each distinct text the store lacks embedded once), and the stored vectors of
 * indexed chunks (a shard rebuild, which never asks the model). Shards get the decoded stored
 * form either way (vector-codec.ts), so a rebuilt shard holds the codes the live one held.
 */
import type { IndexPage, PendingChunk } from "../db/chunks-repo.ts";
import type { Db } from "../db/client.ts";
import { type ChunkVectorRow, storedVectors, type UnstoredChunk } from "../db/vectors-repo.ts";
import type { EmbeddingText, PassageEmbedder } from "./search-indexer.ts";
import { type ChunkVector, chunkId, type Shard } from "./shard.ts";
import { decodeVector, encodeVector, vectorKey } from "./vector-codec.ts";

export interface VectorSource {
  readonly db: Db;
  readonly embeddingText: EmbeddingText;
  /** The model's identity in keys (vector-model.ts). */
  readonly model: string;
}

/**
 * Vectors for `pending`: stored ones looked up, the distinct texts left embedded once. Gives
 * them by domain for the shards, and as rows for `saveChunkVectors`.
 */
export async function vectorsToStore(
  source: VectorSource,
  embedder: PassageEmbedder,
  pending: readonly PendingChunk[],
): Promise<{ byDomain: Map<string, ChunkVector[]>; rows: ChunkVectorRow[] }> {
  const keyed = pending.map((c) => {
    const text = source.embeddingText(c, c.title);
    const key = vectorKey(source.model, text);
    return { chunk: c, text, key, hex: key.toString("hex") };
  });
  const stored = storedVectors(
    source.db,
    keyed.map((k) => k.key),
  );
  const toEmbed = new Map<string, string>();
  for (const k of keyed) if (!stored.has(k.hex)) toEmbed.set(k.hex, k.text);
  if (toEmbed.size > 0) {
    const vectors = await embedder.embedPassages([...toEmbed.values()]);
    if (vectors.length !== toEmbed.size)
      throw new Error(`the model gave ${vectors.length} vectors for ${toEmbed.size} texts`);
    let i = 0;
    for (const hex of toEmbed.keys()) stored.set(hex, encodeVector(vectors[i++] as Float32Array));
  }
  const byDomain = new Map<string, ChunkVector[]>();
  const rows: ChunkVectorRow[] = [];
  for (const { chunk, key, hex } of keyed) {
    const vector = stored.get(hex);
    if (!vector) continue;
    const list = byDomain.get(chunk.domain) ?? [];
    list.push({ chunkId: chunkId(chunk.pageId, chunk.idx), vector: decodeVector(vector) });
    byDomain.set(chunk.domain, list);
    rows.push({ chunkId: chunk.id, key, vector });
  }
  return { byDomain, rows };
}

/** The vectors SQLite holds for the pages' chunks under this model, by `chunks.id` (none for a
 * chunk the vector policy skips, though another chunk of the same text has one). */
export function storedChunkVectors(
  source: VectorSource,
  pages: readonly IndexPage[],
): Map<number, Float32Array> {
  const keyed = pages.flatMap((p) =>
    p.chunks
      .filter((c) => c.vectorWanted)
      .map((c) => ({
        id: c.id,
        key: vectorKey(source.model, source.embeddingText(c, p.title)),
      })),
  );
  const stored = storedVectors(
    source.db,
    keyed.map((k) => k.key),
  );
  const out = new Map<number, Float32Array>();
  for (const { id, key } of keyed) {
    const vector = stored.get(key.toString("hex"));
    if (vector) out.set(id, decodeVector(vector));
  }
  return out;
}

/**
 * Rows for `saveChunkVectors` from the vectors the shard holds for chunks embedded before SQLite
 * kept vectors, and the chunks it holds none for (`lost`: the model's again).
 */
export function shardVectorRows(
  source: VectorSource,
  shard: Shard,
  chunks: readonly UnstoredChunk[],
): { rows: ChunkVectorRow[]; lost: number[] } {
  const rows: ChunkVectorRow[] = [];
  const lost: number[] = [];
  for (const c of chunks) {
    const vector = shard.vectorOf(chunkId(c.pageId, c.idx));
    if (!vector) {
      lost.push(c.id);
      continue;
    }
    const key = vectorKey(source.model, source.embeddingText(c, c.title));
    rows.push({ chunkId: c.id, key, vector: encodeVector(vector) });
  }
  return { rows, lost };
}
