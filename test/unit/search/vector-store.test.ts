import { describe, expect, test } from "bun:test";
import wabtInit from "wabt";
import { VectorArena } from "../../../src/search/vector-arena.ts";
import { VECTOR_KERNEL_WASM } from "../../../src/search/vector-kernel.ts";
import { TopK, VectorStore } from "../../../src/search/vector-store.ts";

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
}

function vectors(n: number, dim: number, seed: number): Float32Array[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => Float32Array.from({ length: dim }, () => r() * 2 - 1));
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

describe("VectorStore", () => {
  const dim = 384;
  const rows = vectors(500, dim, 1);
  const store = new VectorStore(dim);
  for (const [slot, v] of rows.entries()) store.set(slot, v);
  const query = vectors(1, dim, 2)[0] as Float32Array;

  test("int8 rows give the float cosine within 2e-3, and the exact top k", () => {
    const exact = rows
      .map((v, slot) => ({ slot, score: cosine(query, v) }))
      .sort((a, b) => b.score - a.score);
    const hits = store.top(query, 500, 500, null);
    for (const hit of hits)
      expect(Math.abs(hit.score - cosine(query, rows[hit.slot] as Float32Array))).toBeLessThan(
        2e-3,
      );
    // The best ten agree wherever the float scores are further apart than the int8 error.
    const top10 = new Set(hits.slice(0, 10).map((h) => h.slot));
    for (const e of exact.slice(0, 10)) {
      if (e.score - (exact[10]?.score ?? 0) > 4e-3) expect(top10.has(e.slot)).toBe(true);
    }
    expect(hits).toHaveLength(500);
    expect(store.top(query, 3, 500, null)).toEqual(hits.slice(0, 3));
  });

  test("accept and cleared rows leave the scan", () => {
    const accept = new Uint8Array(500);
    accept[7] = 1;
    accept[9] = 1;
    expect(
      store
        .top(query, 10, 500, accept)
        .map((h) => h.slot)
        .sort(),
    ).toEqual([7, 9]);
    const other = new VectorStore(dim);
    for (const [slot, v] of rows.slice(0, 3).entries()) other.set(slot, v);
    other.clear(1);
    expect(other.count).toBe(2);
    expect(
      other
        .top(query, 10, 3, null)
        .map((h) => h.slot)
        .sort(),
    ).toEqual([0, 2]);
    expect(other.has(1)).toBe(false);
  });

  test("rows round-trip through raw/setRaw; get decodes to the unit vector", () => {
    const copy = new VectorStore(dim);
    const { codes, scale } = store.raw(42);
    copy.setRaw(0, codes, scale);
    expect(copy.top(query, 1, 1, null)[0]?.score).toBe(
      store.top(query, 500, 500, null).find((h) => h.slot === 42)?.score as number,
    );
    const unit = store.get(42) as Float32Array;
    expect(cosine(unit, rows[42] as Float32Array)).toBeGreaterThan(0.9999);
  });

  test("bad input", () => {
    expect(() => store.set(0, new Float32Array(10))).toThrow(RangeError);
    expect(() =>
      store.set(
        0,
        Float32Array.from({ length: dim }, () => Number.NaN),
      ),
    ).toThrow(RangeError);
    expect(() => store.top(new Float32Array(3), 1, 500, null)).toThrow(RangeError);
    expect(store.top(new Float32Array(dim), 5, 500, null)).toEqual([]);
  });
});

test("TopK keeps the best k, ties by slot", () => {
  const top = new TopK(3);
  for (const [slot, score] of [
    [5, 0.1],
    [1, 0.9],
    [2, 0.5],
    [3, 0.5],
    [4, 0.95],
    [0, 0.5],
  ])
    top.offer(slot as number, score as number);
  expect(top.sorted()).toEqual([
    { slot: 4, score: 0.95 },
    { slot: 1, score: 0.9 },
    { slot: 0, score: 0.5 },
  ]);
});

test("the embedded kernel bytes are vector-kernel.wat compiled", async () => {
  const wabt = await wabtInit();
  const source = await Bun.file(
    new URL("../../../src/search/vector-kernel.wat", import.meta.url),
  ).text();
  const module = wabt.parseWat("vector-kernel.wat", source, { simd: true });
  const bytes = Buffer.from(module.toBinary({}).buffer).toString("base64");
  if (bytes !== VECTOR_KERNEL_WASM) console.log(`VECTOR_KERNEL_WASM should be:\n${bytes}`);
  expect(bytes).toBe(VECTOR_KERNEL_WASM);
});

describe("VectorArena", () => {
  test("stores share one memory: growing one moves it and leaves the others intact", () => {
    const arena = new VectorArena();
    const dim = 384;
    const rows = vectors(300, dim, 5);
    const a = new VectorStore(dim, 4, arena);
    const b = new VectorStore(dim, 4, arena);
    for (const [slot, v] of rows.slice(0, 4).entries()) b.set(slot, v);
    const before = b.top(rows[0] as Float32Array, 4, 4, null);
    for (const [slot, v] of rows.entries()) a.set(slot, v); // grows a, and the memory, many times
    expect(b.top(rows[0] as Float32Array, 4, 4, null)).toEqual(before);
    expect(a.top(rows[299] as Float32Array, 1, 300, null)[0]?.slot).toBe(299);
    expect(a.top(rows[0] as Float32Array, 1, 300, null)[0]?.slot).toBe(0);
  });

  test("a disposed store gives its block back and cannot be used", () => {
    const arena = new VectorArena();
    const first = new VectorStore(384, 1000, arena);
    const size = arena.bytes;
    first.dispose();
    const second = new VectorStore(384, 1000, arena);
    expect(arena.bytes).toBe(size); // the freed block was reused
    expect(() => first.set(0, new Float32Array(384).fill(1))).toThrow("unloaded");
    second.set(0, new Float32Array(384).fill(1));
    expect(second.count).toBe(1);
  });
});
