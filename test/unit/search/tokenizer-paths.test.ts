/**
 * `tokens` takes a fast path for pieces of printable ASCII and the Unicode rules elsewhere; its
 * output must be exactly what the Unicode rules alone give (`unicodeTokens`, the tokenizer as it
 * was before the fast path) for every input: generated text mixing scripts, marks, separators,
 * digits and long runs, and the real pages and documents under test/fixtures.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tokens, unicodeTokens } from "../../../src/search/tokenizer.ts";
import { prng as random } from "../../helpers/prng.ts";

const SEPARATORS = [" ", "  ", "\n", "\t", "\r", "\r\n", "\v", "\f", "\u00a0", "\u2003", "\u3000"];
const PUNCTUATION = [..."._-'\"()[]{}<>,;:!?/\\@#$%^&*+=|~`"];
const PIECES = [
  ..."\u0000\u007f\u0085\u00ad\u200b\u200d\u2028",
  "café",
  "CAFÉ",
  "naïve",
  "Ångström",
  "Straße",
  "STRASSE",
  "ﬁnd",
  "Ａｂｃ１２",
  "ǅemal",
  "İstanbul",
  "ΣΟΦΟΣ",
  "σοφός",
  "ὀδυσσεύς",
  "Привет",
  "ЁЛКА",
  "مرحبا",
  "שָׁלוֹם",
  "हिन्दी",
  "ไทย",
  "\u0301",
  "e\u0301",
  "東京都",
  "東",
  "の使い方",
  "한국어",
  "ｶﾀｶﾅ",
  "㍿",
  "😀",
  "👍🏽",
  "\ud800",
  "\udc00",
  "x²",
  "①②",
  "Ⅻ",
  "٣٤",
  "python3の使い方",
  "東京2024",
  "a".repeat(161),
  "東".repeat(50),
];

function asciiWord(next: () => number): string {
  const length = 1 + Math.floor(next() * (next() < 0.1 ? 60 : 12));
  let w = "";
  for (let i = 0; i < length; i++) {
    const r = next();
    if (r < 0.15) w += String.fromCharCode(48 + Math.floor(next() * 10));
    else if (r < 0.3) w += String.fromCharCode(65 + Math.floor(next() * 26));
    else w += String.fromCharCode(97 + Math.floor(next() * 26));
  }
  return w;
}

const pick = <T>(next: () => number, xs: readonly T[]): T =>
  xs[Math.floor(next() * xs.length)] as T;

function text(next: () => number): string {
  const parts: string[] = [];
  const count = 1 + Math.floor(next() * 30);
  for (let i = 0; i < count; i++) {
    const r = next();
    if (r < 0.45) parts.push(asciiWord(next));
    else if (r < 0.6) parts.push(pick(next, PUNCTUATION));
    else if (r < 0.8) parts.push(pick(next, PIECES));
    else
      parts.push(pick(next, ["installing", "Installed", "INSTALLS", "running", "the", "doesn't"]));
    const s = next();
    if (s < 0.55) parts.push(" ");
    else if (s < 0.75) parts.push(pick(next, SEPARATORS));
    // else: the next part follows with no separator
  }
  return parts.join("");
}

describe("tokens: the ASCII path gives what the Unicode rules give", () => {
  test("generated text: scripts, marks, separators, digits, long runs (20,000 cases)", () => {
    const next = random(19);
    for (let i = 0; i < 20_000; i++) {
      const t = text(next);
      const expected = unicodeTokens(t);
      const got = tokens(t);
      if (got.join("\u0001") !== expected.join("\u0001"))
        expect({ text: t, got }).toEqual({ text: t, got: expected });
    }
  });

  test("edge cases", () => {
    for (const t of [
      "",
      " ",
      "a",
      "A",
      "a b",
      "é a",
      "a é",
      "é a é",
      "é -- é",
      "é -- a",
      "x".repeat(40),
      "x".repeat(41),
      `${"x".repeat(41)} é`,
      "é\u00a0a",
      "ab\u0301 cd",
      "ΑΣ ab",
      "ΑΣ.ab",
      "ab.ΑΣ",
      "\u0301ab",
      "ab \u0301cd",
      "Install INSTALL install iNsTaLl",
      "a\u0000b",
      "a\u007fb",
      "end é",
      "é end",
    ]) {
      expect(tokens(t)).toEqual(unicodeTokens(t));
      expect(tokens(t)).toEqual(unicodeTokens(t)); // again, from the word cache
    }
  });

  test("the real fixtures, whole and line by line", () => {
    const root = join(import.meta.dir, "../../fixtures");
    let checked = 0;
    for (const dir of ["extract", "spec", "embedding"]) {
      for (const name of readdirSync(join(root, dir))) {
        if (!/\.(html|md|json)$/.test(name)) continue;
        const t = readFileSync(join(root, dir, name), "utf8");
        expect(tokens(t)).toEqual(unicodeTokens(t));
        for (const line of t.split("\n")) {
          const got = tokens(line);
          if (got.join("\u0001") !== unicodeTokens(line).join("\u0001"))
            expect({ line, got }).toEqual({ line, got: unicodeTokens(line) });
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });
});
