/**
 * A bounded cache keyed by a slice of a string, looked up without cutting the slice out: the
 * caller hashes the slice's characters as it scans them (`hashStep`), and a hit compares the
 * stored key character by character. The tokenizers look up every word of every chunk; a
 * `Map<string, V>` needed a fresh substring per word and hashed it again, which was most of
 * their time (profile of test/bench/index-stages.ts). Cleared whole when full, like the `Map`
 * caches it replaces.
 */

/** FNV-1a step over one UTF-16 code unit. */
export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 16777619);
}

export const HASH_SEED = 0x811c9dc5 | 0;

/** The hash of `text[start, end)`: `hashStep` over its characters from HASH_SEED. */
export function hashSlice(text: string, start = 0, end = text.length): number {
  let hash = HASH_SEED;
  for (let i = start; i < end; i++) hash = hashStep(hash, text.charCodeAt(i));
  return hash;
}

export class SliceCache<V> {
  readonly #limit: number;
  #keys: (string | undefined)[];
  #hashes: Int32Array;
  #values: (V | undefined)[];
  #mask: number;
  #size = 0;

  /** Holds at most `limit` entries; cleared whole when one more comes. */
  constructor(limit: number) {
    this.#limit = limit;
    let capacity = 16;
    while (capacity < limit * 2) capacity *= 2;
    this.#mask = capacity - 1;
    this.#keys = new Array(capacity).fill(undefined);
    this.#hashes = new Int32Array(capacity);
    this.#values = new Array(capacity).fill(undefined);
  }

  get size(): number {
    return this.#size;
  }

  /** The value of `text[start, end)`, whose characters hash to `hash`; undefined when absent. */
  get(text: string, start: number, end: number, hash: number): V | undefined {
    const length = end - start;
    const mask = this.#mask;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const key = this.#keys[i];
      if (key === undefined) return undefined;
      if (this.#hashes[i] !== hash || key.length !== length) continue;
      let same = true;
      for (let k = 0; k < length; k++) {
        if (key.charCodeAt(k) !== text.charCodeAt(start + k)) {
          same = false;
          break;
        }
      }
      if (same) return this.#values[i];
    }
  }

  /** Stores `value` under `key` (whose characters hash to `hash`), which must be absent. */
  set(key: string, hash: number, value: V): void {
    if (this.#size >= this.#limit) this.clear();
    const mask = this.#mask;
    let i = hash & mask;
    while (this.#keys[i] !== undefined) i = (i + 1) & mask;
    this.#keys[i] = key;
    this.#hashes[i] = hash;
    this.#values[i] = value;
    this.#size++;
  }

  clear(): void {
    this.#keys.fill(undefined);
    this.#values.fill(undefined);
    this.#size = 0;
  }
}
