import { expect, test } from "bun:test";
import { hashSlice as hashOf, SliceCache } from "../../../src/search/slice-cache.ts";

test("a slice finds the value stored under the same characters, not a prefix or a neighbour", () => {
  const cache = new SliceCache<number>(8);
  cache.set("install", hashOf("install"), 1);
  const text = "to install installer";
  expect(cache.get(text, 3, 10, hashOf(text, 3, 10))).toBe(1);
  expect(cache.get(text, 11, 18, hashOf(text, 11, 18))).toBe(1);
  expect(cache.get(text, 11, 20, hashOf(text, 11, 20))).toBeUndefined();
  expect(cache.get(text, 3, 9, hashOf(text, 3, 9))).toBeUndefined();
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
  for (const [i, w] of ["a", "b", "c"].entries()) cache.set(w, hashOf(w), i);
  expect(cache.size).toBe(3);
  cache.set("d", hashOf("d"), 3);
  expect(cache.size).toBe(1);
  expect(cache.get("a", 0, 1, hashOf("a"))).toBeUndefined();
  expect(cache.get("d", 0, 1, hashOf("d"))).toBe(3);
});
