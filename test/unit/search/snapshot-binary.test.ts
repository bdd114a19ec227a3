import { describe, expect, test } from "bun:test";
import { SnapshotError, stringsBytes, stringsFrom } from "../../../src/search/snapshot-binary.ts";

describe("snapshot string lists", () => {
  test("round trip: empty strings, Latin-1, CJK, emoji", () => {
    const list = ["", "plain ascii", "wörd", "東京の天気", "🥰 thanks!", "", "a\u00a0b"];
    expect(stringsFrom(stringsBytes(list), list.length)).toEqual(list);
    expect(stringsFrom(stringsBytes([]), 0)).toEqual([]);
    expect(stringsFrom(stringsBytes([""]), 1)).toEqual([""]);
  });

  test("a wrong count or bytes that are not UTF-8 are a damaged snapshot", () => {
    expect(() => stringsFrom(stringsBytes(["a", "b"]), 3)).toThrow(SnapshotError);
    expect(() => stringsFrom(new Uint8Array([0x61, 0xff, 0x00, 0x62]), 2)).toThrow("not UTF-8");
    // A view into a larger buffer decodes its own bytes only.
    const whole = stringsBytes(["skip", "x", "yz"]);
    expect(stringsFrom(whole.subarray(5), 2)).toEqual(["x", "yz"]);
  });
});
