import { isUtf8 } from "node:buffer";

/**
 * The byte-level pieces of a shard snapshot (shard-snapshot.ts): sections (each `[u32
 * length][bytes]`, written as a list of parts, never copied into one buffer), NUL-joined string
 * lists, typed arrays, and postings as delta-varint (slot gap, tf) pairs per term.
 */

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SnapshotError";
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** The bytes of a typed array (a view, not a copy). */
export function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export function stringsBytes(list: readonly string[]): Uint8Array {
  return encoder.encode(list.join("\u0000"));
}

/**
 * A list of `count` strings from their NUL-joined bytes, each decoded on its own: split from
 * one decoded string they would share its representation, 16-bit for all as soon as one text
 * holds a character past Latin-1 (measured: 4.5 instead of 2.1 KB a chunk once loaded). The
 * bytes are checked once (UTF-8, as the fatal decoder would), then sliced by Buffer#toString:
 * half the time of a TextDecoder call on a subarray per string, the same strings (the largest
 * share of a shard's load: test/bench/search-latency.ts, profiled).
 */
export function stringsFrom(bytes: Uint8Array, count: number): string[] {
  if (!isUtf8(bytes)) throw new SnapshotError("a string list of the snapshot is not UTF-8");
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const list: string[] = [];
  if (count > 0) {
    let at = 0;
    for (;;) {
      const end = buffer.indexOf(0, at);
      list.push(buffer.toString("utf8", at, end < 0 ? buffer.length : end));
      if (end < 0) break;
      at = end + 1;
    }
  }
  if (list.length !== count) throw new SnapshotError("a string list of the snapshot is damaged");
  return list;
}

export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function jsonFrom<T>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

type TypedArrayOf<T> = { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number };

/** A typed array over a copy of `bytes` (aligned, and not pinning a larger buffer). */
export function typedFrom<T>(Type: TypedArrayOf<T>, bytes: Uint8Array): T {
  if (bytes.byteLength % Type.BYTES_PER_ELEMENT !== 0) {
    throw new SnapshotError("a section of the snapshot has a bad length");
  }
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Type(copy.buffer);
}

/**
 * Sections as parts to write: `[u32 length][u32 CRC-32]` before each (a CRC per section:
 * Bun's crc32 with a seed, to chain parts, runs ~10x slower than without).
 */
export function frame(sections: readonly Uint8Array[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (const section of sections) {
    const head = new Uint8Array(8);
    const view = new DataView(head.buffer);
    view.setUint32(0, section.byteLength, true);
    view.setUint32(4, Bun.hash.crc32(section), true);
    parts.push(head, section);
  }
  return parts;
}

/** The sections of a framed body, each checked against its CRC. */
export function unframe(body: Uint8Array, count: number): Uint8Array[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const out: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 8 > body.byteLength) throw new SnapshotError("the snapshot body is cut short");
    const length = view.getUint32(at, true);
    if (at + 8 + length > body.byteLength)
      throw new SnapshotError("the snapshot body is cut short");
    const section = body.subarray(at + 8, at + 8 + length);
    if (Bun.hash.crc32(section) !== view.getUint32(at + 4, true)) {
      throw new SnapshotError(`section ${i} of the snapshot does not match its checksum`);
    }
    out.push(section);
    at += 8 + length;
  }
  if (at !== body.byteLength)
    throw new SnapshotError("the snapshot body has bytes past its sections");
  return out;
}

/** Postings of each term as (slot delta, tf) varints: ~2 bytes a posting instead of 4. */
export function packPostings(offsets: Uint32Array, postings: Uint32Array): Uint8Array {
  const out = new Uint8Array(postings.length * 5 + 16);
  let at = 0;
  for (let t = 0; t + 1 < offsets.length; t++) {
    let previous = 0;
    for (let i = offsets[t] as number; i < (offsets[t + 1] as number); i++) {
      const p = postings[i] as number;
      const slot = p >>> 8;
      let n = slot - previous;
      while (n >= 0x80) {
        out[at++] = (n & 0x7f) | 0x80;
        n >>>= 7;
      }
      out[at++] = n;
      out[at++] = p & 255;
      previous = slot;
    }
  }
  return out.slice(0, at);
}

export function unpackPostings(offsets: Uint32Array, packed: Uint8Array): Uint32Array {
  const total = offsets[offsets.length - 1] ?? 0;
  const out = new Uint32Array(total);
  let at = 0;
  for (let t = 0; t + 1 < offsets.length; t++) {
    let slot = 0;
    for (let i = offsets[t] as number; i < (offsets[t + 1] as number); i++) {
      let delta = 0;
      let shift = 0;
      let byte: number;
      do {
        if (at >= packed.length)
          throw new SnapshotError("the postings of the snapshot are cut short");
        byte = packed[at++] as number;
        delta += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      slot += delta;
      out[i] = slot * 256 + (packed[at++] as number);
    }
  }
  if (at !== packed.length) throw new SnapshotError("the postings of the snapshot are damaged");
  return out;
}
