import { describe, expect, test } from "bun:test";
import { pageDiverseRrf, reciprocalRankFusion } from "../../../src/search/fusion.ts";

// The reference's tests/test_fusion.py, case for case.
describe("reciprocalRankFusion", () => {
  test("scores and ranks", () => {
    const hits = reciprocalRankFusion(
      { text: ["a", "b", "c"], vector: ["b", "d", "a"] },
      { k: 60, limit: 10 },
    );
    expect(hits.map((h) => h.id)).toEqual(["b", "a", "d", "c"]);
    expect(hits[0]?.ranks).toEqual({ text: 2, vector: 1 });
    expect(hits[0]?.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    const d = hits.find((h) => h.id === "d");
    expect(d?.ranks).toEqual({ vector: 2 });
    expect(d?.score).toBeCloseTo(1 / 62, 12);
  });

  test("limit, and ties broken by id", () => {
    const hits = reciprocalRankFusion({ text: ["z", "y"], vector: ["y", "z"] }, { limit: 10 });
    expect(hits.map((h) => h.id)).toEqual(["y", "z"]);
    expect(hits[0]?.score).toBe(hits[1]?.score as number);
    expect(reciprocalRankFusion({ text: ["z", "y", "x"] }, { limit: 2 })).toEqual([
      { id: "z", score: 1 / 61, ranks: { text: 1 } },
      { id: "y", score: 1 / 62, ranks: { text: 2 } },
    ]);
  });

  test("deterministic whatever the engine order", () => {
    const a = reciprocalRankFusion(
      { text: ["1", "2", "3"], vector: ["3", "2", "1"] },
      { limit: 5 },
    );
    const b = reciprocalRankFusion(
      { vector: ["3", "2", "1"], text: ["1", "2", "3"] },
      { limit: 5 },
    );
    expect(a).toEqual(b);
    expect(a.map((h) => h.id)).toEqual(["1", "3", "2"]);
  });

  test("a duplicate within an engine counts once, at its best rank", () => {
    const hits = reciprocalRankFusion({ text: ["a", "a", "a"] }, { limit: 3 });
    expect(hits).toEqual([{ id: "a", score: 1 / 61, ranks: { text: 1 } }]);
  });

  test("empty inputs", () => {
    expect(reciprocalRankFusion({}, { limit: 10 })).toEqual([]);
    expect(reciprocalRankFusion({ text: [], vector: [] }, { limit: 10 })).toEqual([]);
    expect(reciprocalRankFusion({ text: ["a"] }, { limit: 0 })).toEqual([]);
    expect(() => reciprocalRankFusion({ text: ["a"] }, { k: -1, limit: 1 })).toThrow(RangeError);
  });
});

describe("pageDiverseRrf", () => {
  test("one chunk per page first, pages by fused rank, then the rest by chunk score", () => {
    const pageOf = new Map(Object.entries({ a1: "A", a2: "A", a3: "A", b1: "B", c1: "C" }));
    const hits = pageDiverseRrf(
      { text: ["a1", "a2", "a3", "b1"], vector: ["a2", "c1", "b1"] },
      pageOf,
      { k: 10, limit: 10 },
    );
    expect(hits.slice(0, 3).map((h) => pageOf.get(h.id))).toEqual(["A", "B", "C"]);
    expect(hits[0]?.id).toBe("a2");
    expect(hits[0]?.ranks).toEqual({ text: 2, vector: 1 });
    expect(hits[0]?.score).toBeCloseTo(1 / 11 + 1 / 11, 12);
    expect(hits[1]?.score).toBeCloseTo(1 / 12 + 1 / 13, 12);
    expect(hits[2]?.score).toBeCloseTo(1 / 12, 12);
    expect(hits.slice(3).map((h) => h.id)).toEqual(["a1", "a3"]);
    expect(hits.map((h) => h.id).sort()).toEqual([...pageOf.keys()].sort());
  });

  test("limit, and a chunk of an unknown page is its own page", () => {
    const ranked = { text: ["x", "y", "z"], vector: ["z"] };
    const hits = pageDiverseRrf(
      ranked,
      new Map([
        ["x", "P"],
        ["y", "P"],
      ]),
      { limit: 2 },
    );
    expect(hits.map((h) => h.id)).toEqual(["z", "x"]);
    expect(pageDiverseRrf(ranked, new Map(), { limit: 0 })).toEqual([]);
    expect(pageDiverseRrf({}, new Map(), { limit: 5 })).toEqual([]);
    expect(() => pageDiverseRrf(ranked, new Map(), { k: -1, limit: 1 })).toThrow(RangeError);
  });

  test("deterministic whatever the engine order", () => {
    const pageOf = new Map(Array.from({ length: 9 }, (_, i) => [String(i), `p${i % 3}`]));
    const a = pageDiverseRrf({ text: [..."012345"], vector: [..."876543"] }, pageOf, { limit: 9 });
    const b = pageDiverseRrf({ vector: [..."876543"], text: [..."012345"] }, pageOf, { limit: 9 });
    expect(a).toEqual(b);
    expect(a).toHaveLength(9);
  });
});

describe("pageDiverseRrf with page sums", () => {
  test("a page whose chunks fill an engine's list outranks a page with one better chunk", () => {
    const pageOf = new Map([
      ["a#0", "a"],
      ["b#0", "b"],
      ["b#1", "b"],
      ["b#2", "b"],
    ]);
    const ranked = { text: ["a#0", "b#0", "b#1", "b#2"], vector: ["a#0", "b#1", "b#0"] };
    const first = pageDiverseRrf(ranked, pageOf, { k: 1, limit: 2 });
    expect(first.map((h) => pageOf.get(h.id))).toEqual(["a", "b"]);
    const sum = pageDiverseRrf(ranked, pageOf, { k: 1, limit: 2, pageScore: "sum" });
    expect(sum.map((h) => pageOf.get(h.id))).toEqual(["b", "a"]);
    // a: 1/2 + 1/2 = 1; b: text 1/3 + 1/4 + 1/5, vector 1/3 + 1/4
    expect(sum[0]?.score).toBeCloseTo(1 / 3 + 1 / 4 + 1 / 5 + 1 / 3 + 1 / 4, 10);
    expect(sum[1]?.score).toBeCloseTo(1, 10);
  });
});
