/**
 * A shard's vectors: int8 rows (each vector scaled by its largest component to ±127, the scale
 * kept beside it) in one block of the shared WebAssembly arena (vector-arena.ts), and an exact
 * top-k scan by the SIMD kernel of vector-kernel.wat. Orama's VectorIndex keeps a Float32Array
 * and its magnitude per document in a Map (~1.6 KB and a Map entry each), returns every hit
 * above a similarity threshold and sorts them all (88 ms at 60k chunks); int8 is 384 B a vector
 * in memory and on disk and the kernel scans 60k rows in ~1.4 ms. The cosine it gives differs
 * from float32 by ~1e-3 (test/unit/search/vector-store.test.ts pins the bound). Rows are
 * addressed by slot (see chunk-index.ts); a slot without a vector has scale 0.
 */
import { sharedArena, type VectorArena } from "./vector-arena.ts";

export interface ScoredSlot {
  readonly slot: number;
  readonly score: number;
}

const QUERY_BYTES = 1024;

/**
 * Writes `vector`'s int8 codes (each component scaled by the largest one to ±127) to
 * `codes[at…]` and gives the scale that turns them back into its unit vector; 0, and nothing
 * written, for a zero vector. The one quantization of shards (here) and of SQLite (vector-codec.ts).
 */
export function quantizeInto(vector: ArrayLike<number>, codes: Int8Array, at: number): number {
  let norm = 0;
  let max = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] as number;
    if (!Number.isFinite(x)) throw new RangeError("a vector holds a value that is not finite");
    norm += x * x;
    const a = Math.abs(x);
    if (a > max) max = a;
  }
  if (norm === 0) return 0;
  const inv = 127 / max;
  for (let i = 0; i < vector.length; i++) codes[at + i] = Math.round((vector[i] as number) * inv);
  return max / 127 / Math.sqrt(norm);
}

export class VectorStore {
  readonly dim: number;
  readonly #arena: VectorArena;
  #offset = 0;
  #capacity = 0;
  #scales = new Float32Array(0);
  #count = 0;
  #disposed = false;

  constructor(dim: number, capacity = 64, arena: VectorArena = sharedArena()) {
    if (dim % 16 !== 0 || dim * 2 > QUERY_BYTES) {
      throw new RangeError("vector dimensions must be a multiple of 16, at most 512");
    }
    this.dim = dim;
    this.#arena = arena;
    this.#resize(capacity);
  }

  /** Rows with a vector. */
  get count(): number {
    return this.#count;
  }

  /** Bytes held: the arena block and the scales. */
  get bytes(): number {
    return this.#capacity * this.dim + this.#scales.byteLength;
  }

  /** Gives the arena block back; the store is unusable afterwards. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#arena.free(this.#offset, this.#capacity * this.dim, this);
  }

  #codes(): Int8Array {
    if (this.#disposed) throw new Error("this shard's vectors were unloaded");
    return new Int8Array(this.#arena.buffer, this.#offset, this.#capacity * this.dim);
  }

  #resize(capacity: number): void {
    const bytes = capacity * this.dim;
    const used = this.#capacity * this.dim;
    this.#offset =
      this.#capacity === 0
        ? this.#arena.alloc(bytes, this)
        : this.#arena.realloc(this, this.#offset, used, bytes, used);
    const scales = new Float32Array(capacity);
    scales.set(this.#scales);
    this.#scales = scales;
    this.#capacity = capacity;
  }

  #ensure(slot: number): void {
    if (slot < this.#capacity) return;
    let capacity = Math.max(64, this.#capacity);
    while (capacity <= slot) capacity *= 2;
    this.#resize(capacity);
  }

  /** Stores `vector` (normalised to unit length first) at `slot`. */
  set(slot: number, vector: ArrayLike<number>): void {
    if (vector.length !== this.dim) {
      throw new RangeError(`a vector has ${vector.length} dimensions, this shard ${this.dim}`);
    }
    this.#ensure(slot);
    const scale = quantizeInto(vector, this.#codes(), slot * this.dim);
    if (scale === 0) {
      this.clear(slot);
      return;
    }
    if ((this.#scales[slot] as number) === 0) this.#count++;
    this.#scales[slot] = scale;
  }

  /** Sets a row from its stored form (a snapshot's codes and scale). */
  setRaw(slot: number, codes: Int8Array, scale: number): void {
    this.#ensure(slot);
    this.#codes().set(codes, slot * this.dim);
    if ((this.#scales[slot] as number) === 0 && scale !== 0) this.#count++;
    if ((this.#scales[slot] as number) !== 0 && scale === 0) this.#count--;
    this.#scales[slot] = scale;
  }

  clear(slot: number): void {
    if (slot >= this.#capacity || (this.#scales[slot] as number) === 0) return;
    this.#scales[slot] = 0;
    this.#count--;
  }

  has(slot: number): boolean {
    return slot < this.#capacity && (this.#scales[slot] as number) !== 0;
  }

  /** The stored row as int8 codes (a copy) and its scale (cosine = scale × Σ code·unit query). */
  raw(slot: number): { codes: Int8Array; scale: number } {
    const base = slot * this.dim;
    return { codes: this.#codes().slice(base, base + this.dim), scale: this.#scales[slot] ?? 0 };
  }

  /** Rows of slots kept by `remap` (old slot → new slot, −1: dropped), in one pass. */
  compact(remap: Int32Array, n: number): { codes: Int8Array; scales: Float32Array } {
    const codes = new Int8Array(n * this.dim);
    const scales = new Float32Array(n);
    const rows = this.#codes();
    const end = Math.min(remap.length, this.#capacity);
    for (let slot = 0; slot < end; slot++) {
      const to = remap[slot] as number;
      const scale = this.#scales[slot] as number;
      if (to < 0 || scale === 0) continue;
      codes.set(rows.subarray(slot * this.dim, (slot + 1) * this.dim), to * this.dim);
      scales[to] = scale;
    }
    return { codes, scales };
  }

  /** The stored row decoded to float (unit length up to the int8 rounding). */
  get(slot: number): Float32Array | null {
    if (!this.has(slot)) return null;
    const { codes, scale } = this.raw(slot);
    const out = new Float32Array(this.dim);
    for (let i = 0; i < this.dim; i++) out[i] = (codes[i] as number) * scale;
    return out;
  }

  /**
   * The `k` rows most similar (cosine) to `query` among slots `0..slots-1` that `accept` lets
   * through (all when null), best first; ties by slot.
   */
  top(query: ArrayLike<number>, k: number, slots: number, accept: Uint8Array | null): ScoredSlot[] {
    if (query.length !== this.dim) {
      throw new RangeError(
        `the query vector has ${query.length} dimensions, this shard ${this.dim}`,
      );
    }
    const n = Math.min(slots, this.#capacity);
    if (k <= 0 || n === 0) return [];
    this.#codes();
    let max = 0;
    let norm = 0;
    for (let i = 0; i < this.dim; i++) {
      const x = query[i] as number;
      norm += x * x;
      if (Math.abs(x) > max) max = Math.abs(x);
    }
    if (norm === 0 || !Number.isFinite(norm)) return [];
    const scratch = this.#arena.scratch(QUERY_BYTES + n * 4);
    const buffer = this.#arena.buffer;
    const q = new Int16Array(buffer, scratch, this.dim);
    const qScale = 32767 / max;
    for (let i = 0; i < this.dim; i++) q[i] = Math.round((query[i] as number) * qScale);
    const out = scratch + QUERY_BYTES;
    this.#arena.kernel.dots(scratch, this.#offset, n, this.dim, out);
    const dots = new Int32Array(buffer, out, n);
    const unit = 1 / (qScale * Math.sqrt(norm));
    const scales = this.#scales;
    const heap = new TopK(k);
    for (let slot = 0; slot < n; slot++) {
      const scale = scales[slot] as number;
      if (scale === 0 || (accept !== null && accept[slot] !== 1)) continue;
      heap.offer(slot, (dots[slot] as number) * scale * unit);
    }
    return heap.sorted();
  }
}

/** A bounded min-heap keeping the `k` best (slot, score) pairs. */
export class TopK {
  readonly #k: number;
  readonly #slots: Int32Array;
  readonly #scores: Float64Array;
  #size = 0;

  constructor(k: number) {
    this.#k = k;
    this.#slots = new Int32Array(k);
    this.#scores = new Float64Array(k);
  }

  /** Worse than the current k-th: lower score, or equal score and a higher slot. */
  #less(a: number, b: number): boolean {
    const sa = this.#scores[a] as number;
    const sb = this.#scores[b] as number;
    return sa < sb || (sa === sb && (this.#slots[a] as number) > (this.#slots[b] as number));
  }

  offer(slot: number, score: number): void {
    const slots = this.#slots;
    const scores = this.#scores;
    if (this.#size < this.#k) {
      let i = this.#size++;
      slots[i] = slot;
      scores[i] = score;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#less(i, parent)) break;
        this.#swap(i, parent);
        i = parent;
      }
      return;
    }
    const rootScore = scores[0] as number;
    if (score < rootScore || (score === rootScore && slot > (slots[0] as number))) return;
    slots[0] = slot;
    scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.#size && this.#less(l, m)) m = l;
      if (r < this.#size && this.#less(r, m)) m = r;
      if (m === i) break;
      this.#swap(i, m);
      i = m;
    }
  }

  #swap(a: number, b: number): void {
    const s = this.#slots[a] as number;
    this.#slots[a] = this.#slots[b] as number;
    this.#slots[b] = s;
    const v = this.#scores[a] as number;
    this.#scores[a] = this.#scores[b] as number;
    this.#scores[b] = v;
  }

  /** Best first; equal scores by slot. */
  sorted(): ScoredSlot[] {
    const out: ScoredSlot[] = [];
    for (let i = 0; i < this.#size; i++) {
      out.push({ slot: this.#slots[i] as number, score: this.#scores[i] as number });
    }
    return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }
}
