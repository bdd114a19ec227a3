import { expect, test } from "bun:test";
import { PASSAGE_CHARS, searchText } from "../../../src/mcp/text-answers.ts";

const hit = (text: string, heading = "Install > Linux") => ({
  page_id: "pg_0123456789abcdef",
  url: "https://acme.test/install",
  title: "Install",
  domain: "acme.test",
  heading,
  text,
});
const filters = { applied: {}, unrecognized: [] };

test("a long passage is cut at a word, marked, within the cap", () => {
  const long = "word ".repeat(400);
  const text = searchText({ data: [hit(long)], query: "q", mode: "text", filters });
  const passage = text.split("\n\n").at(-1) ?? "";
  expect(passage.length).toBeLessThanOrEqual(PASSAGE_CHARS + 2);
  expect(passage).toEndWith("word …");
});

test("the heading path stands for the title when it starts with the title's words", () => {
  const text = searchText({
    data: [hit("a", "Setup > Linux"), hit("b", "Install")],
    query: "q",
    mode: "hybrid",
    filters: { applied: { domain: ["acme.test"] }, unrecognized: ["foo"] },
  });
  expect(text).toContain(
    "## 1. Install › Setup > Linux\npg_0123456789abcdef · https://acme.test/install\n\na",
  );
  expect(text).toContain("## 2. Install\npg_");
  const docs = searchText({
    data: [
      {
        ...hit("Call [`sorted()`](http://x.test/f.html#sorted) instead."),
        title: "Sorting HOW TO — Python docs",
        heading: "Sorting HOW TO > Sorting Basics",
      },
    ],
    query: "q",
    mode: "text",
    filters,
  });
  expect(docs).toContain("## 1. Sorting HOW TO > Sorting Basics\n");
  expect(docs).toEndWith("\n\nCall `sorted()` instead.");
  expect(text.split("\n")[0]).toBe(
    '2 passages for "q" (hybrid). Filters: domain=acme.test. Not recognized (ignored): foo. Whole page: get_page_markdown(page_id).',
  );
});

test("no hit says what to try", () => {
  expect(searchText({ data: [], query: "zzz", mode: "text", filters })).toBe(
    '0 passages for "zzz" (text).\nNothing matched: try other words, fewer filters, or list_content to browse.',
  );
});

test("a partial answer says so first", () => {
  const text = searchText({
    data: [],
    query: "q",
    mode: "text",
    filters,
    partial: { reason: "the search index of 1 domain is being rebuilt from the database" },
  });
  expect(text.split("\n")[0]).toBe(
    '0 passages for "q" (text). Incomplete: the search index of 1 domain is being rebuilt from the database.',
  );
});
