import { describe, expect, test } from "bun:test";
import {
  createShardTokenizer,
  MAX_QUERY_TERMS,
  queryTerms,
  tokens,
} from "../../../src/search/tokenizer.ts";

describe("tokens", () => {
  test("fold case and diacritics, split on anything but letters and digits", () => {
    expect(tokens("Café CRÈME, naïve_résumé!")).toEqual(["cafe", "creme", "naiv", "resum"]);
    expect(tokens("python3.11 e-mail")).toEqual(["python3", "11", "e", "mail"]);
  });

  test("stem Latin-script words with Orama's English stemmer, keep repeats", () => {
    expect(tokens("installing installs installed install")).toEqual([
      "instal",
      "instal",
      "instal",
      "instal",
    ]);
    expect(tokens("Привет мир")).toEqual(["привет", "мир"]);
  });

  test("CJK runs become overlapping pairs; mixed runs keep their Latin words", () => {
    expect(tokens("東京都")).toEqual(["東京", "京都"]);
    expect(tokens("東")).toEqual(["東"]);
    expect(tokens("python3の使い方")).toEqual(["python3", "の使", "使い", "い方"]);
    expect(tokens("한국어 검색")).toEqual(["한국", "국어", "검색"]);
  });

  test("drop runs too long to be words", () => {
    expect(tokens(`${"7".repeat(41)} ok ${"7".repeat(40)}`)).toEqual(["ok", "7".repeat(40)]);
  });
});

describe("queryTerms", () => {
  test("operators and quotes are plain text", () => {
    // near, and, not: stop words, as in the reference.
    expect(queryTerms('NEAR(foo bar) AND "x" NOT y* -z ^w col:v')).toEqual([
      "foo",
      "bar",
      "x",
      "y",
      "z",
      "w",
      "col",
      "v",
    ]);
    expect(queryTerms('"" \' ( ) * : ^ -- ;')).toEqual([]);
  });

  test("stop words go unless nothing else is left", () => {
    expect(queryTerms("how do I install python")).toEqual(["instal", "python"]);
    expect(queryTerms("the who")).toEqual(["the", "who"]);
    expect(queryTerms("does this")).toEqual(["doe", "thi"]);
  });

  test("distinct and capped", () => {
    expect(queryTerms("python python PYTHON")).toEqual(["python"]);
    const long = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");
    expect(queryTerms(long)).toHaveLength(MAX_QUERY_TERMS);
    expect(queryTerms("q".repeat(1000))).toEqual([]);
  });
});

test("the Orama component: a property means indexing (repeats kept), none a query", () => {
  const t = createShardTokenizer();
  expect(t.tokenize("the cat and the cat", "english", "text")).toEqual([
    "the",
    "cat",
    "and",
    "the",
    "cat",
  ]);
  expect(t.tokenize("the cat and the cat")).toEqual(["cat"]);
});
