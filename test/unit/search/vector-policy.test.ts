import { describe, expect, test } from "bun:test";
import {
  ALWAYS_EMBED_CHUNKS,
  INDEX_PAGE_VECTORS,
  indexEvidence,
  indexLikePath,
  markdownShape,
  type PageForVectors,
  vectorDecision,
} from "../../../src/search/vector-policy.ts";

const url = (path: string) => `http://docs.example.org${path}`;
const link = (i: number) => `[Section ${i}](http://docs.example.org/guide/part-${i}.html#s${i})`;
const prose = (i: number) =>
  `Paragraph ${i} explains how the configuration file is read at start, which settings it may ` +
  `hold and what happens when one of them is missing; see ${link(i)} for the details of each.`;

function page(markdown: string, chunks: number, path = "/guide/page.html", type = "docs") {
  return { url: url(path), type, chunks, shape: markdownShape(markdown) } satisfies PageForVectors;
}

describe("markdownShape", () => {
  test("counts content lines, short link entries, links and anchor words; URLs are no words", () => {
    const md = [
      "# Title",
      "",
      "- [Install](http://x.org/install.html)",
      "- [The long way round](http://x.org/long.html#a) and more",
      "| name | what |",
      "|---|---|",
      "| [`atexit`](http://x.org/atexit.html) | *Register and execute cleanup functions.* |",
      "```",
      "- [not](http://x.org/code) a link entry: inside a code block",
      "```",
      prose(1),
    ].join("\n");
    expect(markdownShape(md)).toEqual({
      contentLines: 5,
      linkEntries: 3,
      linkEntryWords: 1 + 6 + 6,
      links: 4,
      // 1 + 6 + 2 + 6 + the paragraph's words (its URL not among them)
      words: 1 + 6 + 2 + 6 + countWords(prose(1).replace(/\(http[^)]*\)/, "")),
      linkWords: 1 + 4 + 1 + 2,
    });
  });

  test("a line of more than 16 words is no entry, even with a link", () => {
    expect(markdownShape(prose(1)).linkEntries).toBe(0);
    expect(markdownShape(`- ${link(1)} short`).linkEntries).toBe(1);
  });
});

function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0;
}

describe("vectorDecision", () => {
  const toc = Array.from({ length: 300 }, (_, i) => `${"  ".repeat(i % 3)}- ${link(i)}`);

  test("a table of contents keeps vectors for its first chunks only", () => {
    const d = vectorDecision(page(["# Contents", ...toc].join("\n"), 60));
    expect(d.vectors).toBe(INDEX_PAGE_VECTORS);
    expect(d.reason).toContain("300 of 300 lines are short link entries");
  });

  test("a book index of one-line paragraphs reads as an index too", () => {
    const entries = Array.from({ length: 200 }, (_, i) => `**term${i}, ${link(i)}**\n`);
    const d = vectorDecision(page(entries.join("\n"), 40, "/docs/15/reference-book.html"));
    expect(d.vectors).toBe(INDEX_PAGE_VECTORS);
  });

  test("an index flattened into long lines is told by its link density", () => {
    const line = Array.from({ length: 150 }, (_, i) => `- ${link(i)}`).join(" ");
    const shape = markdownShape(`# Index – A\n\n${line}`);
    expect(shape.linkEntries).toBe(0);
    const d = vectorDecision({ url: url("/glossary-a.html"), type: "docs", chunks: 30, shape });
    expect(d.vectors).toBe(INDEX_PAGE_VECTORS);
    expect(d.reason).toContain("150 links");
  });

  test("prose with a link in every paragraph keeps all its vectors", () => {
    const md = Array.from({ length: 200 }, (_, i) => prose(i)).join("\n\n");
    expect(vectorDecision(page(md, 50))).toEqual({ vectors: 50, reason: null });
  });

  test("a reference page with a short list of links among its prose keeps all its vectors", () => {
    const md = [
      ...Array.from({ length: 60 }, (_, i) => prose(i)),
      ...toc.slice(0, 45),
      ...Array.from({ length: 60 }, (_, i) => prose(i + 60)),
    ].join("\n\n");
    expect(vectorDecision(page(md, 40)).reason).toBeNull();
  });

  test("a chapter whose own table of contents tops long paragraphs keeps all its vectors", () => {
    // Most lines are link entries, but the paragraphs hold most of the words.
    const md = [
      ...toc.slice(0, 60),
      ...Array.from({ length: 30 }, (_, i) => `${prose(i)} ${prose(i + 30)}`),
    ].join("\n");
    const shape = markdownShape(md);
    expect(shape.linkEntries / shape.contentLines).toBeGreaterThanOrEqual(0.6);
    expect(vectorDecision(page(md, 40)).reason).toBeNull();
  });

  test("type listing or an index-like path lowers the bars", () => {
    // 20 link entries, half the lines and ~40% of the words: too few to decide alone.
    const notes = Array.from({ length: 20 }, (_, i) => `Note ${i}, see above.`);
    const md = [...toc.slice(0, 20), ...notes].join("\n");
    expect(vectorDecision(page(md, 12)).reason).toBeNull();
    expect(vectorDecision(page(md, 12, "/guide/page.html", "listing")).reason).toContain(
      "type listing",
    );
    expect(vectorDecision(page(md, 12, "/genindex-B.html")).reason).toContain("index-like path");
  });

  test("a hint alone decides nothing", () => {
    const md = Array.from({ length: 100 }, (_, i) => prose(i)).join("\n\n");
    expect(indexEvidence(page(md, 30, "/genindex.html", "listing"))).toBeNull();
  });

  test("a page of few chunks is embedded whole", () => {
    const md = toc.join("\n");
    expect(vectorDecision(page(md, ALWAYS_EMBED_CHUNKS))).toEqual({
      vectors: ALWAYS_EMBED_CHUNKS,
      reason: null,
    });
    expect(vectorDecision(page(md, ALWAYS_EMBED_CHUNKS + 1)).vectors).toBe(INDEX_PAGE_VECTORS);
  });
});

describe("indexLikePath", () => {
  test.each([
    ["/genindex-all.html", true],
    ["/genindex.html", true],
    ["/py-modindex.html", true],
    ["/docs/15/bookindex.html", true],
    ["/contents.html", true],
    ["/blog/tags/", true],
    ["/category/news/", false],
    ["/categories", true],
    ["/sitemap.html", true],
    ["/library/os.html", false],
    ["/library/index.html", false],
    ["/contents-of-the-box.html", false],
    ["/toc-and-indexes.html", false],
  ])("%s → %p", (path, expected) => {
    expect(indexLikePath(url(path))).toBe(expected);
  });

  test("a URL that does not parse has no index-like path", () => {
    expect(indexLikePath("not a url")).toBe(false);
  });
});
