import { describe, expect, test } from "bun:test";
import type { Link } from "../../../src/extract/document.ts";
import {
  boilerplateShare,
  originalityFrom,
  withMaxSimilarity,
} from "../../../src/facets/originality.ts";
import { scorePage } from "../../../src/facets/score-page.ts";
import {
  maxSimilarity,
  SimhashIndex,
  simhash64,
  simhashTokens,
  similarity,
} from "../../../src/facets/simhash.ts";
import { templateKey, templateLinkKeys } from "../../../src/facets/templates.ts";
import { ENGLISH, GERMAN, makeDoc } from "./helpers.ts";

/** A deterministic pseudo-random text over the words of the two sample paragraphs. */
function randomText(words: number, seed: number): string {
  const vocab = `${ENGLISH} ${GERMAN}`.split(" ");
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(vocab[x % vocab.length] as string);
  }
  return out.join(" ");
}

describe("simhash", () => {
  test("near-duplicates score high, unrelated texts low, a text equals itself", () => {
    const a = randomText(400, 1);
    const b = `${a.replace(" ", " an hour ")} Thanks for reading.`;
    expect(similarity(simhash64(a), simhash64(b))).toBeGreaterThanOrEqual(0.85);
    expect(similarity(simhash64(a), simhash64(ENGLISH + GERMAN))).toBeLessThanOrEqual(0.75);
    expect(similarity(simhash64(a), simhash64(a))).toBe(1);
    const h = simhash64(a);
    expect(h >= -(2n ** 63n) && h < 2n ** 63n).toBe(true);
    expect(simhash64("")).toBe(0n);
  });

  test("unrelated random texts land near 0.5", () => {
    const sims = [2, 3, 4, 5, 6].map((s) =>
      similarity(simhash64(randomText(300, s)), simhash64(randomText(300, s + 100))),
    );
    const mean = sims.reduce((x, y) => x + y, 0) / sims.length;
    expect(mean).toBeGreaterThan(0.35);
    expect(mean).toBeLessThan(0.7);
  });

  test("long runs of CJK split into characters, case and punctuation ignored", () => {
    expect(simhashTokens("数据库的查询计划器为每个查询选择索引")).toHaveLength(18);
    expect(simhash64("Hello, World! Again.")).toBe(simhash64("hello world again"));
  });

  test("the index finds the nearest other page, and skips the page itself", () => {
    const a = simhash64(randomText(300, 7));
    const near = simhash64(`${randomText(300, 7)} one more sentence at the end`);
    const far = simhash64(randomText(300, 8));
    const index = new SimhashIndex([
      ["a", a],
      ["far", far],
      ["empty", null],
    ]);
    expect(index.maxSimilarity(a, "a")).toBe(similarity(a, far));
    index.set("near", near);
    expect(index.maxSimilarity(a, "a")).toBe(similarity(a, near));
    expect(index.maxSimilarity(a)).toBe(1);
    expect(index.maxSimilarity(null)).toBe(0);
    expect(new SimhashIndex().maxSimilarity(a)).toBe(0);
    for (let i = 0; i < 600; i++) index.set(`p${i}`, BigInt(i));
    expect(index.size).toBe(604);
    expect(maxSimilarity(a, [far, null])).toBe(similarity(a, far));
  });
});

describe("originality", () => {
  test("boilerplate share counts template anchor words against the main text", () => {
    const links: Link[] = [
      {
        url: "https://x.example/a",
        anchorText: "Home page",
        position: "template",
        nofollow: false,
      },
      {
        url: "https://x.example/b",
        anchorText: "Read more here",
        position: "body",
        nofollow: false,
      },
    ];
    expect(boilerplateShare(makeDoc("one two three four five six seven eight", { links }))).toBe(
      0.2,
    );
  });

  test("duplication and boilerplate lower it; short pages are capped", () => {
    expect(originalityFrom(0, 0.5)).toBe(1);
    expect(originalityFrom(0, 0.95)).toBe(0);
    expect(originalityFrom(0, 0.85)).toBe(0.5);
    expect(originalityFrom(0.5, 0)).toBe(0.6);
    expect(originalityFrom(0, 0, 20)).toBe(0.44);
  });
});

describe("template links", () => {
  const link = (url: string, anchorText: string, position: Link["position"] = "body"): Link => ({
    url,
    anchorText,
    position,
    nofollow: false,
  });

  test("links on more than half of the pages are template, anchors normalized", () => {
    const nav = [
      link("https://x.example/pricing", "Pricing"),
      link("https://x.example/docs", " Docs ", "template"),
    ];
    const pages = Array.from({ length: 10 }, (_, i) => [
      ...nav,
      link(`https://x.example/post/${i}`, `Post ${i}`),
    ]);
    pages.push([link("https://x.example/pricing", "pricing")]);
    expect(templateLinkKeys(pages)).toEqual(
      new Set([
        templateKey("https://x.example/pricing", "pricing"),
        templateKey("https://x.example/docs", "docs"),
      ]),
    );
    expect(templateLinkKeys(pages.slice(0, 2)).size).toBe(0);
  });
});

describe("originality across a domain", () => {
  test("a worker's score is finished with the domain's nearest page, as if scored with it", () => {
    const text = `${ENGLISH} `.repeat(6);
    const doc = makeDoc(text);
    const first = scorePage(doc, "https://x.example/blog/a");
    const index = new SimhashIndex([["other", simhash64(`${text} One more line.`)]]);
    const nearest = index.maxSimilarity(first.simhash);
    expect(nearest).toBeGreaterThan(0.9);
    const finished = withMaxSimilarity(first, nearest);
    const direct = scorePage(doc, "https://x.example/blog/a", { maxSimilarity: nearest });
    expect(finished.facets).toEqual(direct.facets);
    expect(finished.explain.originality).toEqual(direct.explain.originality);
    expect(finished.facets.originality).toBeLessThan(0.3);
  });
});
