import { describe, expect, test } from "bun:test";
import { CharClass, classOfChar, normalizeChar } from "../../../src/search/bert-text.ts";
import { loadTokenCounter, MODEL_DIR } from "../../../src/search/model-files.ts";
import { createTokenCounter, vocabularyOf } from "../../../src/search/word-pieces.ts";
import { nativeCounts, nativeTokenizer } from "../../helpers/native-tokenizer.ts";

const tokenizer = nativeTokenizer();

/** A small deterministic generator (the tests must not change from run to run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe("word-piece counts", () => {
  test("match the native tokenizer on random Unicode text", async () => {
    const rnd = random(7);
    const alphabet = [
      ...Array.from({ length: 0x250 }, (_, i) => String.fromCodePoint(i)), // ASCII, controls, Latin
      ..."\u0301\u0344\u093e\u200b\u200e\u2019\u201c\u2014\u2028\u3000\ufeff\ufffd\x85\u0130",
      ..."日本語テキスト한국어를Яблокоﬁ㍻ǅﷺ😀🥰\u{2b820}\u{2b920}\u07fd\u2e43\u1734",
      ...["the", "The", "tokenizer", "x".repeat(120), "y".repeat(99), "ΣΑΣ", " ", "\n", "\t"],
      ...["\x0b\x0c\x1c\x1f", "[CLS]", "[SEP]", "a[MASK]b", "[cls]", "[UNK", "[PAD]]"],
    ];
    const pick = () => alphabet[Math.floor(rnd() * alphabet.length)] ?? "";
    const texts = Array.from({ length: 6000 }, () =>
      Array.from({ length: Math.floor(rnd() * 40) }, pick).join(""),
    );
    const counter = loadTokenCounter();
    const want = await nativeCounts(tokenizer, texts);
    expect(texts.map((t) => counter.count(t))).toEqual(want);
    expect(texts.map((t) => counter.count(t))).toEqual(want); // again, from the caches
  });

  test("added tokens count one piece wherever they stand", () => {
    const counter = loadTokenCounter();
    expect(counter.count("[CLS]")).toBe(1);
    expect(counter.count("a[SEP]b")).toBe(3);
    expect(counter.count("[cls]")).toBe(4); // case matters: "[", "cl", "##s", "]"
  });

  test("every vocabulary word (lowercase, alphanumeric) is one piece", async () => {
    const vocab = vocabularyOf(await Bun.file(`${MODEL_DIR}/tokenizer.json`).json());
    const words = vocab.filter((w) => /^[a-z0-9]{1,100}$/.test(w));
    expect(words.length).toBeGreaterThan(20_000);
    const counter = createTokenCounter(vocab);
    expect(words.every((w) => counter.count(w) === 1)).toBe(true);
    expect(await nativeCounts(tokenizer, words.slice(0, 3000))).toEqual(
      words.slice(0, 3000).map(() => 1),
    );
  });

  test("words: longest match first, [UNK] for no match or more than 100 characters", async () => {
    const counter = loadTokenCounter();
    const texts = ["tokenizer", "unaffable", "x".repeat(100), "x".repeat(101), "\u{1f970}", "ﬁne"];
    expect(texts.map((t) => counter.count(t))).toEqual(await nativeCounts(tokenizer, texts));
    expect(counter.count("x".repeat(101))).toBe(1);
  });
});

describe("BERT character rules", () => {
  // Every code point of planes 0-3 and 14 (all assigned characters) and a sample of the unassigned
  // and private-use planes: normalisation and pre-tokenizer class agree with the native
  // tokenizer's, i.e. bert-unicode-exceptions.ts is complete for this Bun's Unicode tables.
  test("agree with the native normalizer and pre-tokenizer on every assigned code point", () => {
    const normalizer = tokenizer.getNormalizer();
    const preTokenizer = tokenizer.getPreTokenizer();
    if (!normalizer || !preTokenizer) throw new Error("tokenizer.json without BERT rules");
    const normalizeMismatches: string[] = [];
    const classMismatches: string[] = [];
    const assigned = (cp: number) => cp < 0x40000 || (cp >= 0xe0000 && cp < 0xe1000);
    for (let cp = 0; cp < 0x110000; cp++) {
      if ((cp >= 0xd800 && cp < 0xe000) || (!assigned(cp) && cp % 97 !== 0)) continue;
      const ch = String.fromCodePoint(cp);
      if (normalizer.normalizeString(ch) !== normalizeChar(cp)) {
        normalizeMismatches.push(cp.toString(16));
      }
      const parts = preTokenizer.preTokenizeString(`a${ch}b`).length;
      const native =
        parts === 1 ? CharClass.Word : parts === 3 ? CharClass.Isolated : CharClass.Space;
      if (native !== classOfChar(cp)) classMismatches.push(cp.toString(16));
    }
    // On a mismatch: bun test/eval/embedding/bert-unicode-exceptions.ts
    expect(normalizeMismatches.slice(0, 20)).toEqual([]);
    expect(classMismatches.slice(0, 20)).toEqual([]);
  }, 120_000);
});
