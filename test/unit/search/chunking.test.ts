import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { type Chunk, chunkMarkdown, embeddingText } from "../../../src/search/chunking.ts";
import { loadTokenCounter } from "../../../src/search/model-files.ts";
import { nativeCounts, nativeTokenizer } from "../../helpers/native-tokenizer.ts";

const counter = loadTokenCounter();
const tokenizer = nativeTokenizer();
const chunk = (md: string, options: Parameters<typeof chunkMarkdown>[2] = {}) =>
  chunkMarkdown(md, counter, options);

/** `n` words, a sentence end every 12. */
function words(n: number, word = "alpha"): string {
  return Array.from({ length: n }, (_, i) => (i % 12 === 11 ? `${word}${i}.` : word)).join(" ");
}

describe("chunkMarkdown", () => {
  test("empty and blank markdown give no chunks", () => {
    expect(chunk("")).toEqual([]);
    expect(chunk("  \n\n \n")).toEqual([]);
  });

  test("heading paths, and small sibling sections merged under their parent", () => {
    const md =
      "# Guide\n\nIntro paragraph about the guide.\n\n" +
      `## Install\n\n${words(150)}\n\n` +
      "### Linux\n\nUse apt to install.\n\n" +
      "### macOS\n\nUse brew to install.\n\n" +
      `## Usage\n\n${words(150, "beta")}\n`;
    const chunks = chunk(md, { title: "Guide" });
    expect(["Guide", "Guide > Install"]).toContain(chunks[0]?.heading ?? "");
    const linux = chunks.find((c) => c.text.includes("Use apt"));
    expect(linux?.text).toContain("Use brew");
    expect("Guide > Install > Linux".startsWith(linux?.heading ?? "?")).toBe(true);
    expect(linux?.text).toContain("### macOS");
    expect(linux?.text).toContain("## Install");
    const usage = chunks.find((c) => c.text.includes("beta"));
    expect(usage?.heading).toBe("Guide > Usage");
    expect(usage?.text).not.toContain("alpha"); // no merging across parents beyond the budget
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  test("budget respected, with exact token counts and room for the context", async () => {
    const md = `# Big\n\n${Array.from({ length: 12 }, (_, i) => words(90 + i * 7)).join("\n\n")}`;
    const chunks = chunk(md, { maxTokens: 128, overlapTokens: 16, title: "T" });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.map((c) => c.tokens)).toEqual(
      await nativeCounts(
        tokenizer,
        chunks.map((c) => c.text),
      ),
    );
    const inputs = chunks.map((c) => embeddingText(c, "T"));
    const withSpecial = await nativeCounts(tokenizer, inputs, true);
    expect(Math.max(...withSpecial)).toBeLessThanOrEqual(128);
  });

  test("prose chunks start with the previous chunk's last sentences", () => {
    const text = Array.from(
      { length: 80 },
      (_, i) => `Sentence number ${i} talks about topic${i}.`,
    ).join(" ");
    const chunks = chunk(text, { maxTokens: 64, overlapTokens: 16 });
    expect(chunks.length).toBeGreaterThan(3);
    for (let i = 1; i < chunks.length; i++) {
      const first = /^Sentence number \d+ [^.]*\./.exec((chunks[i] as Chunk).text)?.[0];
      expect(first).toBeDefined();
      expect((chunks[i - 1] as Chunk).text).toContain(first ?? "?");
    }
    const plain = chunk(text, { maxTokens: 64, overlapTokens: 0 });
    const sum = (cs: Chunk[]) => cs.reduce((n, c) => n + c.tokens, 0);
    expect(sum(plain)).toBeLessThan(sum(chunks));
  });

  test("a code block that fits stays whole", () => {
    const code = `\`\`\`python\n${Array.from({ length: 12 }, (_, i) => `x${i} = compute(${i})`).join("\n")}\n\`\`\``;
    const md = `# A\n\n${words(180)}\n\n${code}\n\n${words(60, "gamma")}`;
    const holders = chunk(md).filter((c) => c.text.includes("x0 = compute(0)"));
    expect(holders.length).toBe(1);
    expect(holders[0]?.text).toContain("x11 = compute(11)");
    expect(holders[0]?.text.split("```").length).toBe(3);
  });

  test("an oversized code block is split at lines, each piece with its fences", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `print('line ${i}', value_${i})`);
    const md = `## Code\n\n\`\`\`python\n${lines.join("\n")}\n\`\`\`\n`;
    const chunks = chunk(md, { maxTokens: 128, overlapTokens: 32 });
    expect(chunks.length).toBeGreaterThan(3);
    const seen: string[] = [];
    for (const c of chunks) {
      expect(c.text.startsWith("```python\n")).toBe(true);
      expect(c.text.endsWith("\n```")).toBe(true);
      expect(c.tokens + 2).toBeLessThanOrEqual(128);
      seen.push(...c.text.split("\n").slice(1, -1));
    }
    expect(seen).toEqual(lines); // no line cut, no overlap inside code
  });

  test("an unclosed fence runs to the end and is closed in every piece", () => {
    const md = `# H\r\n\r\ntext before\r\n\r\n\`\`\`\r\ncode # not a heading\r\n`;
    const chunks = chunk(md);
    expect(chunks.map((c) => c.heading)).toEqual(["H"]);
    expect(chunks[0]?.text).toContain("# not a heading");
    const long = `\`\`\`sh\n${Array.from({ length: 150 }, (_, i) => `echo step ${i}`).join("\n")}\n`;
    const pieces = chunk(long, { maxTokens: 64 });
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.every((c) => c.text.startsWith("```sh\n") && c.text.endsWith("\n```"))).toBe(
      true,
    );
  });

  test("an oversized table is split by rows, each piece with the header", () => {
    const header = "| name | value | description |\n|---|---|---|";
    const rows = Array.from(
      { length: 120 },
      (_, i) => `| item${i} | ${i} | the item number ${i} |`,
    );
    const chunks = chunk(`# T\n\n${header}\n${rows.join("\n")}`, { maxTokens: 128 });
    expect(chunks.length).toBeGreaterThan(3);
    const seen: string[] = [];
    for (const c of chunks) {
      expect(c.text.startsWith(header)).toBe(true);
      seen.push(...c.text.split("\n").slice(2));
    }
    expect(seen).toEqual(rows);
  });

  test("giant unbroken text is cut hard, within the budget", () => {
    const chunks = chunk(`${"x".repeat(5000)} ${"y".repeat(3000)}`, { maxTokens: 64 });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.tokens + 2 <= 64)).toBe(true);
  });

  test("text with more word pieces than characters is halved until it fits", async () => {
    const chunks = chunk("한.".repeat(3000), { maxTokens: 64 });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.tokens + 2 <= 64)).toBe(true);
    expect(chunks.map((c) => c.tokens)).toEqual(
      await nativeCounts(
        tokenizer,
        chunks.map((c) => c.text),
      ),
    );
  });

  test("a long heading context shrinks the budget so the input still fits", async () => {
    const heading = Array.from({ length: 20 }, (_, i) => `Раздел${i}`).join(" ");
    const title = "Заголовок документа";
    const chunks = chunk(`# ${heading}\n\n${words(600)}`, { title });
    expect(chunks.length).toBeGreaterThan(3);
    const counts = await nativeCounts(
      tokenizer,
      chunks.map((c) => embeddingText(c, title)),
      true,
    );
    expect(Math.max(...counts)).toBeLessThanOrEqual(256);
  });

  test("a closing sequence of #s is dropped, a # inside a word is kept", () => {
    const chunks = chunk(`## Using C# ##\n\n${words(20)}`);
    expect(chunks[0]?.heading).toBe("Using C#");
  });

  test("deterministic", () => {
    const md = `# A\n\n${words(400)}\n\n## B\n\n${words(300, "beta")}`;
    expect(chunk(md, { title: "A" })).toEqual(chunk(md, { title: "A" }));
  });
});

describe("embeddingText", () => {
  test("puts title and heading path first, without a title repeated as H1", () => {
    const c = { heading: "Guide > Install", text: "body" };
    expect(embeddingText(c, "Guide")).toBe("Guide > Install\n\nbody");
    expect(embeddingText(c, "Other")).toBe("Other > Guide > Install\n\nbody");
    expect(embeddingText({ heading: "", text: "body" }, null)).toBe("body");
  });

  test("an H1 that is the title without the site's name stands for it; heading links read as anchors", () => {
    const heading =
      "[`optparse`](https://docs.python.org/library/optparse.html#module-optparse) — Parser for command line options > Option Callbacks";
    expect(
      embeddingText(
        { heading, text: "body" },
        "optparse — Parser for command line options — Python 3.11.2 documentation",
      ),
    ).toBe("`optparse` — Parser for command line options > Option Callbacks\n\nbody");
    expect(
      embeddingText({ heading: "Introduction > Scope", text: "body" }, "PostgreSQL: Introduction"),
    ).toBe("Introduction > Scope\n\nbody");
    // A heading that only begins the title's words is not the title: both stay.
    expect(
      embeddingText(
        { heading: "Python > Install", text: "body" },
        "Python on Windows FAQ — Python 3.11.2 documentation",
      ),
    ).toBe("Python on Windows FAQ — Python 3.11.2 documentation > Python > Install\n\nbody");
  });
});

describe("real pages (committed HTML fixtures, extracted as the crawler extracts them)", () => {
  const dirs = ["test/fixtures/extract", "test/eval/facets/pages"];
  const pages = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".html"))
      .map((f) => `${dir}/${f}`),
  );
  const FENCE = /^[ \t]*(`{3,}|~{3,})/;

  test("exact counts, inputs within the window, rows and fences whole", async () => {
    expect(pages.length).toBeGreaterThan(40);
    let total = 0;
    for (const path of pages) {
      const html = await Bun.file(path).text();
      const { title, markdown } = extractDocument(html, `https://docs.example.com/${path}`);
      const chunks = chunk(markdown, { title });
      if (markdown.trim() === "") continue;
      expect(chunks.length).toBeGreaterThan(0);
      total += chunks.length;
      expect(chunks.map((c) => c.tokens)).toEqual(
        await nativeCounts(
          tokenizer,
          chunks.map((c) => c.text),
        ),
      );
      const inputs = chunks.map((c) => embeddingText(c, title));
      expect(Math.max(...(await nativeCounts(tokenizer, inputs, true)))).toBeLessThanOrEqual(256);
      const rows = new Set(
        markdown
          .split("\n")
          .filter((l) => l.trimStart().startsWith("|"))
          .map((l) => l.trim()),
      );
      for (const c of chunks) {
        const lines = c.text.split("\n");
        const cut = lines.filter((l) => l.trimStart().startsWith("|") && !rows.has(l.trim()));
        expect(cut).toEqual([]);
        expect(lines.filter((l) => FENCE.test(l)).length % 2).toBe(0);
      }
      const blocks = markdown.match(/^```[^\n]*\n[\s\S]*?\n```$/gm) ?? [];
      for (const block of blocks.filter((b) => counter.count(b) <= 100)) {
        expect(chunks.some((c) => c.text.includes(block))).toBe(true);
      }
    }
    expect(total).toBeGreaterThan(100);
  });
});
