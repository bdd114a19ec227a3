import { expect, test } from "bun:test";
import { markdownToText } from "../../../src/extract/plain-text.ts";

test("markup is stripped, code kept verbatim, table cells joined", () => {
  const md =
    "# Title\n\nSome **bold** and *em* and [a link](https://x.y/z) and `code`.\n\n" +
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nx = [1](2)\n```";
  const text = markdownToText(md);
  expect(text).toStartWith("Title\n\nSome bold and em and a link and code.");
  expect(text).toContain("1 2");
  expect(text).not.toContain("---");
  expect(text).toContain("x = [1](2)");
});

test("lists, quotes, escapes and images", () => {
  const md =
    "- one\n  - two\n1. first\n> quoted \\*not em\\*\n\n![alt](https://x.y/i.png) [![logo](https://x.y/l.png)](https://x.y/)";
  expect(markdownToText(md)).toBe("one\n  two\nfirst\nquoted *not em*");
});

test("a very long line of marks is stripped without the quadratic patterns", () => {
  const line = "*a [b **c `d ".repeat(50_000);
  const text = markdownToText(`${line}\n\nnext *paragraph*`);
  expect(text).toEndWith("next paragraph");
  expect(text.length).toBeGreaterThan(400_000);
});
