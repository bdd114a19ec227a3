import { expect, test } from "bun:test";
import { hashSlice, SliceCache } from "../../../src/search/slice-cache.ts";

test("a slice finds the value stored under the same characters, not a prefix or a neighbour", () => {
  const cache = new SliceCache<number>(8);
  cache.set("install", hashSlice("install"), 1);
  const text = "to install installer";
  expect(cache.get(text, 3, 10, hashSlice(text, 3, 10))).toBe(1);
  expect(cache.get(text, 11, 18, hashSlice(text, 11, 18))).toBe(1);
  expect(cache.get(text, 11, 20, hashSlice(text, 11, 20))).toBeUndefined();
  expect(cache.get(text, 3, 9, hashSlice(text, 3, 9))).toBeUndefined();
});

test("equal hashes with different characters are told apart", () => {
  const cache = new SliceCache<string>(8);
  cache.set("ab", 42, "first");
  cache.set("cd", 42, "second");
  expect(cache.get("xabx", 1, 3, 42)).toBe("first");
  expect(cache.get("cd", 0, 2, 42)).toBe("second");
  expect(cache.get("ef", 0, 2, 42)).toBeUndefined();
});

test("bounded: cleared whole when one more entry comes", () => {
  const cache = new SliceCache<number>(3);
  for (const [i, w] of ["a", "b", "c"].entries()) cache.set(w, hashSlice(w), i);
  expect(cache.size).toBe(3);
  cache.set("d", hashSlice("d"), 3);
  expect(cache.size).toBe(1);
  expect(cache.get("a", 0, 1, hashSlice("a"))).toBeUndefined();
  expect(cache.get("d", 0, 1, hashSlice("d"))).toBe(3);
});
