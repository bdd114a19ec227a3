/**
 * Near-duplicate signatures: a 64-bit SimHash over the 3-word shingles of the main text.
 *
 * Each shingle is hashed to 64 bits and votes on every bit; a bit of the signature is set where
 * the votes for it outweigh those against. Similar texts share most shingles and so most bits: `similarity` is
 * 1 - Hamming distance / 64 (unrelated texts land around 0.5, near-duplicates above ~0.9).
 * One integer per page, cheap to store and compare (MinHash would estimate Jaccard more exactly
 * but needs 128+ integers per page). Same algorithm as the reference (which hashed each distinct
 * shingle's text with BLAKE2b-64); the signatures' values differ from its.
 */
import { WORD_RUN } from "./unicode-regex.ts";

const SHINGLE = 3;
const SEED_HI = 0x9e3779b9;
const SEED_LO = 0x85ebca6b;
const MASK64 = (1n << 64n) - 1n;
/** A character past U+2E80 (CJK and the scripts after it), as the reference checks. */
const CJK = /[\u2e81-\uffff]/;

/** Lowercased word tokens; runs of scripts written without spaces (CJK) split into characters. */
export function simhashTokens(text: string): string[] {
  const toks = text.toLowerCase().match(WORD_RUN) ?? [];
  const out: string[] = [];
  for (const t of toks) {
    // Python's len() counts code points: a run of more than 12 needs more than 12 UTF-16 units.
    if (t.length > 12 && CJK.test(t)) {
      const chars = [...t];
      if (chars.length > 12) {
        out.push(...chars);
        continue;
      }
    }
    out.push(t);
  }
  return out;
}

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

/** MurmurHash3's 32-bit combination of three token hashes (one lane of a shingle's hash). */
function mix(h: number, x: number): number {
  const k = Math.imul(rotl(Math.imul(x, C1), 15), C2);
  return (Math.imul(rotl(h ^ k, 13), 5) + 0xe6546b64) | 0;
}

function combine(seed: number, a: number, b: number, c: number): number {
  let h = mix(mix(mix(seed, a), b), c);
  h ^= 12;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** 64-bit SimHash of the text as a signed 64-bit integer (fits SQLite INTEGER); 0n when empty.
 *
 * Each token is hashed once (two seeded xxHash32, native in Bun) and each 3-word shingle's
 * 64 bits combine its tokens' hashes; every occurrence of a shingle votes, which is the same
 * as weighting a distinct shingle by its count. */
export function simhash64(text: string): bigint {
  const toks = simhashTokens(text);
  if (!toks.length) return 0n;
  const hi = new Uint32Array(toks.length);
  const lo = new Uint32Array(toks.length);
  const seen = new Map<string, number>();
  toks.forEach((t, i) => {
    const j = seen.get(t);
    if (j === undefined) {
      seen.set(t, i);
      hi[i] = Bun.hash.xxHash32(t, SEED_HI);
      lo[i] = Bun.hash.xxHash32(t, SEED_LO);
    } else {
      hi[i] = hi[j] as number;
      lo[i] = lo[j] as number;
    }
  });
  const acc = new Int32Array(64);
  let total = 0;
  const vote = (h: number, l: number) => {
    total++;
    for (let b = 0; b < 32; b++) {
      acc[31 - b] = (acc[31 - b] as number) + ((h >>> b) & 1);
      acc[63 - b] = (acc[63 - b] as number) + ((l >>> b) & 1);
    }
  };
  if (toks.length < SHINGLE) {
    const b = toks.length > 1 ? 1 : 0;
    vote(
      combine(SEED_HI, hi[0] as number, hi[b] as number, 0),
      combine(SEED_LO, lo[0] as number, lo[b] as number, 0),
    );
  } else {
    for (let i = 0; i + SHINGLE <= toks.length; i++) {
      vote(
        combine(SEED_HI, hi[i] as number, hi[i + 1] as number, hi[i + 2] as number),
        combine(SEED_LO, lo[i] as number, lo[i + 1] as number, lo[i + 2] as number),
      );
    }
  }
  // acc[i] counts the votes for bit i (MSB first); set where they outweigh those against.
  let hiWord = 0;
  let loWord = 0;
  for (let i = 0; i < 32; i++) {
    if (2 * (acc[i] as number) - total > 0) hiWord |= 1 << (31 - i);
    if (2 * (acc[32 + i] as number) - total > 0) loWord |= 1 << (31 - i);
  }
  return BigInt.asIntN(64, (BigInt(hiWord >>> 0) << 32n) | BigInt(loWord >>> 0));
}

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

function halves(h: bigint): [number, number] {
  const u = h & MASK64;
  return [Number(u >> 32n), Number(u & 0xffffffffn)];
}

/** 1 - Hamming distance / 64 of two signatures (1 = identical). */
export function similarity(a: bigint, b: bigint): number {
  const [ah, al] = halves(a);
  const [bh, bl] = halves(b);
  return 1 - (popcount32((ah ^ bh) >>> 0) + popcount32((al ^ bl) >>> 0)) / 64;
}

/**
 * The signatures of a domain's pages by page id, answering "how close is the nearest other
 * page" in one pass over two 32-bit arrays (a crawl asks once per page).
 */
export class SimhashIndex {
  #slots = new Map<string, number>();
  #hi = new Uint32Array(256);
  #lo = new Uint32Array(256);
  #present = new Uint8Array(256);

  constructor(items: Iterable<readonly [string, bigint | null]> = []) {
    for (const [id, h] of items) this.set(id, h);
  }

  get size(): number {
    return this.#slots.size;
  }

  /** Record or replace a page's signature; `null`: the page has none (no text). */
  set(id: string, h: bigint | null): void {
    let slot = this.#slots.get(id);
    if (slot === undefined) {
      slot = this.#slots.size;
      if (slot === this.#hi.length) this.#grow();
      this.#slots.set(id, slot);
    }
    this.#present[slot] = h === null ? 0 : 1;
    const [hi, lo] = h === null ? [0, 0] : halves(h);
    this.#hi[slot] = hi;
    this.#lo[slot] = lo;
  }

  /** Highest similarity of `h` to a recorded page other than `exclude` (0 when none). */
  maxSimilarity(h: bigint | null, exclude?: string): number {
    if (h === null || this.#slots.size === 0) return 0;
    const [hi, lo] = halves(h);
    const skip = exclude === undefined ? -1 : (this.#slots.get(exclude) ?? -1);
    let nearest = 65;
    for (let i = 0; i < this.#slots.size; i++) {
      if (i === skip || !this.#present[i]) continue;
      const d = popcount32((this.#hi[i] as number) ^ hi) + popcount32((this.#lo[i] as number) ^ lo);
      if (d < nearest) nearest = d;
    }
    return nearest > 64 ? 0 : 1 - nearest / 64;
  }

  #grow(): void {
    const grow = <T extends Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(a.length * 2);
      b.set(a);
      return b;
    };
    this.#hi = grow(this.#hi, (n) => new Uint32Array(n));
    this.#lo = grow(this.#lo, (n) => new Uint32Array(n));
    this.#present = grow(this.#present, (n) => new Uint8Array(n));
  }
}

/** Highest similarity of `h` to any of `others` (0 when there are none). */
export function maxSimilarity(h: bigint | null, others: Iterable<bigint | null>): number {
  let i = 0;
  const index = new SimhashIndex();
  for (const o of others) index.set(String(i++), o);
  return index.maxSimilarity(h);
}
