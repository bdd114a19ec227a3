/**
 * A chunk's vector as SQLite keeps it (`vectors` in src/db/schema.ts): the int8 codes a shard
 * holds (vector-store.ts: each component scaled by the largest one to ±127) followed by the fp32
 * scale that turns them back into a unit vector, 388 bytes for 384 dimensions; and the key it is
 * found by, a digest of the model's identity and the exact text the model embedded.
 *
 * The indexer hands shards the decoded vector, live and when rebuilding, so a shard rebuilt from
 * SQLite quantizes the same floats to the same codes and answers vector searches as before.
 */
import { quantizeInto } from "./vector-store.ts";

/** Bytes of a key: 128 bits of SHA-256, collisions out of reach at any corpus size. */
const KEY_BYTES = 16;

/** The key of `text` embedded by `model` (a model change never reuses stored vectors). */
export function vectorKey(model: string, text: string): Buffer {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(model);
  hasher.update("\u0000");
  hasher.update(text);
  return hasher.digest().subarray(0, KEY_BYTES);
}

/** The stored form of `vector`: its int8 codes, then the scale (little-endian fp32). */
export function encodeVector(vector: ArrayLike<number>): Buffer {
  const dim = vector.length;
  const out = Buffer.alloc(dim + 4);
  const scale = quantizeInto(vector, new Int8Array(out.buffer, out.byteOffset, dim), 0);
  out.writeFloatLE(scale, dim); // 0 for a zero vector: no direction to keep
  return out;
}

/** The unit vector (up to the int8 rounding) a stored form stands for. */
export function decodeVector(stored: Uint8Array): Float32Array {
  const dim = stored.byteLength - 4;
  if (dim <= 0) throw new RangeError(`a stored vector of ${stored.byteLength} bytes`);
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  const scale = view.getFloat32(dim, true);
  const codes = new Int8Array(stored.buffer, stored.byteOffset, dim);
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = (codes[i] as number) * scale;
  return out;
}
