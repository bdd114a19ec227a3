import { describe, expect, test } from "bun:test";
import { decodeVector, encodeVector, vectorKey } from "../../../src/search/vector-codec.ts";
import { VectorStore } from "../../../src/search/vector-store.ts";

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
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

const dim = 384;
const r = rng(7);
const rows = Array.from({ length: 300 }, () =>
  Float32Array.from({ length: dim }, () => r() * 2 - 1),
);
const query = Float32Array.from({ length: dim }, () => r() * 2 - 1);

describe("stored vectors", () => {
  test("388 bytes; decoded, the cosine to a query is the float one within 2e-3", () => {
    for (const v of rows) {
      const stored = encodeVector(v);
      expect(stored.byteLength).toBe(dim + 4);
      expect(Math.abs(cosine(query, decodeVector(stored)) - cosine(query, v))).toBeLessThan(2e-3);
    }
  });

  test("a shard given the decoded vector holds the codes it would hold from the float one", () => {
    const live = new VectorStore(dim);
    const rebuilt = new VectorStore(dim);
    rows.forEach((v, slot) => {
      live.set(slot, decodeVector(encodeVector(v)));
      rebuilt.set(slot, decodeVector(encodeVector(v)));
    });
    const direct = new VectorStore(dim);
    for (const [slot, v] of rows.entries()) direct.set(slot, v);
    for (let slot = 0; slot < rows.length; slot++) {
      expect(rebuilt.raw(slot)).toEqual(live.raw(slot));
      expect(live.raw(slot).codes).toEqual(direct.raw(slot).codes);
    }
    const top = live.top(query, 10, rows.length, null);
    for (const hit of top) {
      expect(Math.abs(hit.score - cosine(query, rows[hit.slot] as Float32Array))).toBeLessThan(
        2e-3,
      );
    }
  });

  test("a zero vector is stored with scale 0; a value that is not finite is refused", () => {
    expect(decodeVector(encodeVector(new Float32Array(dim))).every((x) => x === 0)).toBe(true);
    const bad = new Float32Array(dim);
    bad[3] = Number.NaN;
    expect(() => encodeVector(bad)).toThrow(RangeError);
  });

  test("keys: 16 bytes, the same for the same model and text, different otherwise", () => {
    const key = vectorKey("m/int8/abc", "Title\n\ntext");
    expect(key.byteLength).toBe(16);
    expect(vectorKey("m/int8/abc", "Title\n\ntext")).toEqual(key);
    expect(vectorKey("m/fp32/abc", "Title\n\ntext")).not.toEqual(key);
    expect(vectorKey("m/int8/abc", "Title\n\ntext ")).not.toEqual(key);
    // The separator keeps model and text apart: ("ab", "c") is not ("a", "bc").
    expect(vectorKey("ab", "c")).not.toEqual(vectorKey("a", "bc"));
  });
});
