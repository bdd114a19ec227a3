/**
 * Chunks of real pages of the Debian doc sites (unpacked under $WEBCORPUS_DOCS_ROOT or
 * /work/cache/root): 150 Python and 150 PostgreSQL pages, a fixed sample, extracted as the crawler
 * extracts them. The reference's test_real_pages_* (tests/test_chunking.py) in TypeScript.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { extractDocument } from "../../src/extract/extract-document.ts";
import { chunkMarkdown, embeddingText } from "../../src/search/chunking.ts";
import { loadTokenCounter } from "../../src/search/model-files.ts";
import { nativeCounts, nativeTokenizer } from "../helpers/native-tokenizer.ts";

setDefaultTimeout(600_000);

const ROOT = Bun.env.WEBCORPUS_DOCS_ROOT ?? "/work/cache/root";
const SITES = [
  ["usr/share/doc/python3.11/html", "https://docs.python.org/3.11/"],
  ["usr/share/doc/postgresql-doc-15/html", "https://www.postgresql.org/docs/15/"],
] as const;
const FENCE = /^[ \t]*(`{3,}|~{3,})/;

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".html"))
    .sort();
}

/** `n` of `items`, the same ones every run. */
function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  let state = seed;
  const pool = [...items];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(...pool.splice(state % pool.length, 1));
  }
  return out;
}

const pages = SITES.flatMap(([dir, base]) => {
  const top = join(ROOT, dir);
  return sample(htmlFiles(top), 150, 3).map((file) => {
    const url = base + relative(top, join(top, file));
    const doc = extractDocument(readFileSync(join(top, file)), url);
    return { url, title: doc.title, markdown: doc.markdown };
  });
});
const counter = loadTokenCounter();
const tokenizer = nativeTokenizer();

describe("chunks of 300 Debian doc pages", () => {
  test("exact token counts, inputs within the window, table rows and fences whole", async () => {
    let total = 0;
    for (const { url, title, markdown } of pages) {
      const chunks = chunkMarkdown(markdown, counter, { title });
      expect(chunkMarkdown(markdown, counter, { title })).toEqual(chunks); // deterministic
      if (!markdown.trim()) continue;
      expect({ url, chunks: chunks.length > 0 }).toEqual({ url, chunks: true });
      total += chunks.length;
      expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
      const counts = await nativeCounts(
        tokenizer,
        chunks.map((c) => c.text),
      );
      expect({ url, counts: chunks.map((c) => c.tokens) }).toEqual({ url, counts });
      const inputs = await nativeCounts(
        tokenizer,
        chunks.map((c) => embeddingText(c, title)),
        true,
      );
      expect({ url, longest: Math.max(...inputs) <= 256 }).toEqual({ url, longest: true });
      const rows = new Set(
        markdown
          .split("\n")
          .filter((l) => l.trimStart().startsWith("|"))
          .map((l) => l.trim()),
      );
      // A row longer than a chunk (an index page can be one giant row) has to be cut.
      const cutOk = [...rows].some((row) => counter.count(row) > 128);
      for (const c of chunks) {
        const lines = c.text.split("\n");
        const cut = lines.filter((l) => l.trimStart().startsWith("|") && !rows.has(l.trim()));
        if (!cutOk) expect({ url, cut }).toEqual({ url, cut: [] });
        const fences = lines.filter((l) => FENCE.test(l)).length;
        expect({ url, oddFences: fences % 2 }).toEqual({ url, oddFences: 0 });
      }
    }
    expect(total).toBeGreaterThan(3000);
  });

  test("code blocks that fit a chunk stay whole", () => {
    let checked = 0;
    for (const { title, markdown } of pages) {
      const blocks = (markdown.match(/^```[^\n]*\n[\s\S]*?\n```$/gm) ?? []).filter(
        (b) => counter.count(b) <= 100,
      );
      if (blocks.length === 0) continue;
      const chunks = chunkMarkdown(markdown, counter, { title });
      for (const block of blocks) {
        expect(chunks.some((c) => c.text.includes(block))).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
