/**
 * Near-duplicate signatures: a 64-bit SimHash over the 3-word shingles of the main text.
 *
 * Each distinct shingle is hashed to 64 bits (two seeded xxHash32, native in Bun) and votes on
 * every bit with its number of occurrences; a bit of the signature is set where the votes for it
 * outweigh those against. Similar texts share most shingles and so most bits: `similarity` is
 * 1 - Hamming distance / 64 (unrelated texts land around 0.5, near-duplicates above ~0.9).
 * One integer per page, cheap to store and compare (MinHash would estimate Jaccard more exactly
 * but needs 128+ integers per page). Same algorithm as the reference (which hashed shingles
 * with BLAKE2b-64); the signatures' values differ from its.
 */
import { WORD_RUN } from "./unicode-regex.ts";

const SHINGLE = 3;
const SEED_HI = 0x9e3779b9;
const SEED_LO = 0x85ebca6b;
const MASK64 = (1n << 64n) - 1n;

/** Lowercased word tokens; runs of scripts written without spaces (CJK) split into characters. */
export function simhashTokens(text: string): string[] {
  const toks = text.toLowerCase().match(WORD_RUN) ?? [];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  if (/^[\x00-\x7f]*$/.test(text)) return toks;
  const out: string[] = [];
  for (const t of toks) {
    const chars = [...t];
    if (chars.length > 12 && chars.some((c) => (c.codePointAt(0) ?? 0) > 0x2e80))
      out.push(...chars);
    else out.push(t);
  }
  return out;
}

/** 64-bit SimHash of the text as a signed 64-bit integer (fits SQLite INTEGER); 0n when empty. */
export function simhash64(text: string): bigint {
  const toks = simhashTokens(text);
  if (!toks.length) return 0n;
  const weights = new Map<string, number>();
  if (toks.length < SHINGLE) weights.set(toks.join(" "), 1);
  else {
    for (let i = 0; i + SHINGLE <= toks.length; i++) {
      const s = `${toks[i]} ${toks[i + 1]} ${toks[i + 2]}`;
      weights.set(s, (weights.get(s) ?? 0) + 1);
    }
  }
  const acc = new Float64Array(64);
  let total = 0;
  for (const [shingle, w] of weights) {
    total += w;
    const hi = Bun.hash.xxHash32(shingle, SEED_HI);
    const lo = Bun.hash.xxHash32(shingle, SEED_LO);
    for (let b = 0; b < 32; b++) {
      if ((hi >>> b) & 1) acc[31 - b] = (acc[31 - b] as number) + w;
      if ((lo >>> b) & 1) acc[63 - b] = (acc[63 - b] as number) + w;
    }
  }
  // acc[i] counts the weight voting 1 for bit i (MSB first); set where it outweighs the rest.
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
