/**
 * The byte-level pieces of a shard snapshot (shard-snapshot.ts): length-prefixed sections, NUL-
 * joined string lists, and postings as delta-varint (slot gap, tf) pairs per term.
 */

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SnapshotError";
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

export class Writer {
  #parts: Uint8Array[] = [];
  #length = 0;
  bytes(b: Uint8Array): void {
    this.u32(b.byteLength);
    this.#parts.push(b);
    this.#length += b.byteLength;
  }
  u32(n: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n, true);
    this.#parts.push(b);
    this.#length += 4;
  }
  view(a: ArrayBufferView): void {
    this.bytes(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  strings(list: readonly string[]): void {
    this.u32(list.length);
    this.bytes(encoder.encode(list.join("\u0000")));
  }
  json(value: unknown): void {
    this.bytes(encoder.encode(JSON.stringify(value)));
  }
  done(): Uint8Array {
    const out = new Uint8Array(this.#length);
    let at = 0;
    for (const p of this.#parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
}

export class Reader {
  #at = 0;
  readonly #b: Uint8Array;
  readonly #view: DataView;
  constructor(b: Uint8Array) {
    this.#b = b;
    this.#view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  u32(): number {
    if (this.#at + 4 > this.#b.byteLength)
      throw new SnapshotError("the snapshot body is cut short");
    const n = this.#view.getUint32(this.#at, true);
    this.#at += 4;
    return n;
  }
  bytes(): Uint8Array {
    const n = this.u32();
    if (this.#at + n > this.#b.byteLength)
      throw new SnapshotError("the snapshot body is cut short");
    const out = this.#b.subarray(this.#at, this.#at + n);
    this.#at += n;
    return out;
  }
  /** A copy, aligned for typed array views. */
  copy(): ArrayBuffer {
    const b = this.bytes();
    // Not b.slice(): on a Node Buffer (what zstd gives back) slice is a view, not a copy.
    const out = new Uint8Array(b.byteLength);
    out.set(b);
    return out.buffer;
  }
  strings(): string[] {
    const n = this.u32();
    const text = decoder.decode(this.bytes());
    const list = n === 0 ? [] : text.split("\u0000");
    if (list.length !== n) throw new SnapshotError("a string list of the snapshot is damaged");
    return list;
  }
  json<T>(): T {
    return JSON.parse(decoder.decode(this.bytes())) as T;
  }
}

/** Postings of each term as (slot delta, tf) varints: ~2 bytes a posting instead of 4. */
export function packPostings(offsets: Uint32Array, postings: Uint32Array): Uint8Array {
  const out = new Uint8Array(postings.length * 5 + 16);
  let at = 0;
  const varint = (n: number) => {
    while (n >= 0x80) {
      out[at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    out[at++] = n;
  };
  for (let t = 0; t + 1 < offsets.length; t++) {
    let previous = 0;
    for (let i = offsets[t] as number; i < (offsets[t + 1] as number); i++) {
      const p = postings[i] as number;
      const slot = p >>> 8;
      varint(slot - previous);
      out[at++] = p & 255;
      previous = slot;
    }
  }
  return out.subarray(0, at);
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
  return out;
}
