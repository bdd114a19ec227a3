/**
 * A shard's full-text index: a posting list per term, scored with BM25 as SQLite FTS5 does it
 * (the reference's `bm25(chunks_fts, 4.0, 2.0, 1.0)`): a chunk's term frequency is the sum over
 * its fields of weight × occurrences (title 4, heading 2, text 1), its length the token count of
 * all fields, IDF = ln((N − n + 0.5) / (n + 0.5)) floored at 1e-6, k1 = 1.2, b = 0.75.
 *
 * What it replaces in Orama's default index: a radix tree node per word (prefix matching expands
 * "py" to thousands of words; `findAllWords` dedupes with `includes`, O(n²)), a `{token: tf}`
 * object per document per field (`frequencies`, the largest structure on the heap, carrying a tf
 * that is always 1/unique-tokens because the default tokenizer dedupes) and Map accumulators.
 * Here a posting is one uint32 (slot × 256 + weighted tf, capped at 255) in a growing
 * Uint32Array per term, lookups are exact, and a query accumulates into a Float64Array.
 *
 * Removal is lazy: a removed slot stays in its postings until `save` drops it (the index lives
 * in slots that are never reused, see chunk-index.ts); the search skips slots that are not live
 * and counts a term's documents over live slots only, so scores equal a fresh index's.
 */
import { type ScoredSlot, TopK } from "./vector-store.ts";

const K1 = 1.2;
const B = 0.75;
const MAX_TF = 255;
export const MAX_SLOTS = 2 ** 24;

export interface TextIndexRaw {
  readonly terms: string[];
  /** Postings of term i are postings[offsets[i]..offsets[i+1]). */
  readonly offsets: Uint32Array;
  readonly postings: Uint32Array;
  readonly lengths: Uint16Array;
}

export class TextIndex {
  #termIds = new Map<string, number>();
  #terms: string[] = [];
  #lists: Uint32Array[] = [];
  /** Bytes of `#lists`, kept as they grow (the registry asks on every load and upsert). */
  #listBytes = 0;
  #sizes = new Int32Array(1024);
  #lengths = new Uint16Array(1024);
  #totalLength = 0;
  #documents = 0;
  #scores = new Float64Array(1024);
  /** Occurrences of each term in the field being added (zero between calls). */
  #tf = new Int32Array(1024);
  readonly #touched: number[] = [];

  get terms(): number {
    return this.#terms.length;
  }

  /** Bytes of posting arrays, lengths and accumulator. */
  get bytes(): number {
    return (
      this.#listBytes + this.#sizes.byteLength + this.#lengths.byteLength + this.#scores.byteLength
    );
  }

  #ensureSlot(slot: number): void {
    if (slot >= MAX_SLOTS) throw new RangeError("a shard holds at most 2^24 chunk slots");
    if (slot < this.#lengths.length) return;
    let size = this.#lengths.length;
    while (size <= slot) size *= 2;
    const lengths = new Uint16Array(size);
    lengths.set(this.#lengths);
    this.#lengths = lengths;
    this.#scores = new Float64Array(size);
  }

  #termId(term: string): number {
    let id = this.#termIds.get(term);
    if (id === undefined) {
      id = this.#terms.push(term) - 1;
      this.#termIds.set(term, id);
      this.#lists.push(new Uint32Array(2));
      this.#listBytes += 2 * Uint32Array.BYTES_PER_ELEMENT;
      if (id >= this.#sizes.length) {
        const sizes = new Int32Array(this.#sizes.length * 2);
        sizes.set(this.#sizes);
        this.#sizes = sizes;
      }
      if (id >= this.#tf.length) {
        const tf = new Int32Array(this.#sizes.length);
        tf.set(this.#tf);
        this.#tf = tf;
      }
    }
    return id;
  }

  /** Indexes one field of the newest slot: its tokens (with repeats) at `weight`. */
  add(slot: number, tokens: readonly string[], weight: number): void {
    this.#ensureSlot(slot);
    const previous = this.#lengths[slot] as number;
    if (previous === 0 && tokens.length > 0) this.#documents++;
    this.#lengths[slot] = Math.min(65535, previous + tokens.length);
    this.#totalLength += (this.#lengths[slot] as number) - previous;
    // Term ids in order of first occurrence, as a Map of counts would give them.
    const touched = this.#touched;
    for (const t of tokens) {
      const id = this.#termId(t);
      if (this.#tf[id] === 0) touched.push(id);
      this.#tf[id] = (this.#tf[id] as number) + 1;
    }
    try {
      for (const id of touched) {
        const count = this.#tf[id] as number;
        this.#tf[id] = 0;
        let list = this.#lists[id] as Uint32Array;
        let size = this.#sizes[id] as number;
        const last = size > 0 ? (list[size - 1] as number) : -1;
        if (last >= 0 && last >>> 8 === slot) {
          list[size - 1] = slot * 256 + Math.min(MAX_TF, (last & 255) + weight * count);
          continue;
        }
        if (size > 0 && last >>> 8 > slot) throw new RangeError("slots must be indexed in order");
        if (size === list.length) {
          const grown = new Uint32Array(size * 2);
          grown.set(list);
          this.#lists[id] = grown;
          this.#listBytes += grown.byteLength - list.byteLength;
          list = grown;
        }
        list[size++] = slot * 256 + Math.min(MAX_TF, weight * count);
        this.#sizes[id] = size;
      }
    } finally {
      for (const id of touched) this.#tf[id] = 0;
      touched.length = 0;
    }
  }

  /** The slot is gone: its length leaves the statistics now, its postings at the next save. */
  drop(slot: number): void {
    const length = this.#lengths[slot] ?? 0;
    if (length === 0) return;
    this.#totalLength -= length;
    this.#documents--;
    this.#lengths[slot] = 0;
  }

  /**
   * The `k` best live slots for `terms` (any of them), best first, among those `accept` lets
   * through (null: all). `live[slot]` is 1 for live slots.
   */
  search(
    terms: readonly string[],
    k: number,
    live: Uint8Array,
    accept: Uint8Array | null,
  ): ScoredSlot[] {
    if (k <= 0 || this.#documents === 0) return [];
    const n = this.#documents;
    const avg = this.#totalLength / n;
    const lengths = this.#lengths;
    const scores = this.#scores;
    const touched: number[] = [];
    for (const term of new Set(terms)) {
      const id = this.#termIds.get(term);
      if (id === undefined) continue;
      const list = this.#lists[id] as Uint32Array;
      const size = this.#sizes[id] as number;
      let hits = 0;
      for (let i = 0; i < size; i++) if (live[(list[i] as number) >>> 8] === 1) hits++;
      if (hits === 0) continue;
      const idf = Math.max(1e-6, Math.log((n - hits + 0.5) / (hits + 0.5)));
      for (let i = 0; i < size; i++) {
        const p = list[i] as number;
        const slot = p >>> 8;
        if (live[slot] !== 1 || (accept !== null && accept[slot] !== 1)) continue;
        const tf = p & 255;
        const norm = K1 * (1 - B + (B * (lengths[slot] as number)) / avg);
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] as number) + (idf * tf * (K1 + 1)) / (tf + norm);
      }
    }
    const top = new TopK(k);
    for (const slot of touched) {
      top.offer(slot, scores[slot] as number);
      scores[slot] = 0;
    }
    return top.sorted();
  }

  /** Postings of live slots only, renumbered through `remap` (old slot → new slot, −1: gone). */
  save(remap: Int32Array, newSlots: number): TextIndexRaw {
    const terms: string[] = [];
    const offsets: number[] = [0];
    let total = 0;
    for (let id = 0; id < this.#terms.length; id++) total += this.#sizes[id] as number;
    const postings = new Uint32Array(total);
    let at = 0;
    for (let id = 0; id < this.#terms.length; id++) {
      const list = this.#lists[id] as Uint32Array;
      const size = this.#sizes[id] as number;
      const start = at;
      for (let i = 0; i < size; i++) {
        const p = list[i] as number;
        const slot = remap[p >>> 8] ?? -1;
        if (slot >= 0) postings[at++] = slot * 256 + (p & 255);
      }
      if (at > start) {
        terms.push(this.#terms[id] as string);
        offsets.push(at);
      }
    }
    const lengths = new Uint16Array(newSlots);
    for (let old = 0; old < remap.length; old++) {
      const slot = remap[old] as number;
      if (slot >= 0) lengths[slot] = this.#lengths[old] ?? 0;
    }
    return { terms, offsets: Uint32Array.from(offsets), postings: postings.slice(0, at), lengths };
  }

  static load(raw: TextIndexRaw): TextIndex {
    const index = new TextIndex();
    index.#ensureSlot(Math.max(0, raw.lengths.length - 1));
    index.#lengths.set(raw.lengths);
    for (const length of raw.lengths) {
      if (length > 0) {
        index.#documents++;
        index.#totalLength += length;
      }
    }
    index.#sizes = new Int32Array(Math.max(1024, raw.terms.length));
    index.#tf = new Int32Array(index.#sizes.length); // one counter per term, as #sizes
    raw.terms.forEach((term, id) => {
      const start = raw.offsets[id] as number;
      const end = raw.offsets[id + 1] as number;
      index.#termIds.set(term, id);
      index.#terms.push(term);
      // A copy sized to the list (+ room to grow): a view would pin the whole file buffer.
      const list = new Uint32Array(Math.max(2, end - start));
      list.set(raw.postings.subarray(start, end));
      index.#lists.push(list);
      index.#listBytes += list.byteLength;
      index.#sizes[id] = end - start;
    });
    return index;
  }
}
