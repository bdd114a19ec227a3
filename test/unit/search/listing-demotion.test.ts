import { describe, expect, test } from "bun:test";
import { demoteListings } from "../../../src/search/listing-demotion.ts";

const isListing = (h: string) => h.startsWith("L");

describe("listings rank below the pages they list", () => {
  test("a listing moves down past three other hits, the others keep their order", () => {
    expect(demoteListings(["L1", "a", "b", "c", "d"], isListing)).toEqual([
      "a",
      "b",
      "c",
      "L1",
      "d",
    ]);
  });

  test("two listings keep their order; with fewer hits after them they go last", () => {
    expect(demoteListings(["L1", "L2", "a", "b"], isListing)).toEqual(["a", "b", "L1", "L2"]);
    expect(demoteListings(["a", "L1"], isListing)).toEqual(["a", "L1"]);
    expect(demoteListings(["L1"], isListing)).toEqual(["L1"]);
  });

  test("by 0 changes nothing", () => {
    expect(demoteListings(["L1", "a"], isListing, 0)).toEqual(["L1", "a"]);
  });
});
