/** Demoting headings for the domain bundle: every heading one level down, code untouched. */
import { expect, test } from "bun:test";
import { demoteHeadings } from "../../../src/services/markdown-headings.ts";
import { atxHeadings } from "../../helpers/markdown.ts";

test("headings go one level down; code, indented code and hashtags stay", () => {
  const md = [
    "# Title",
    "",
    "text",
    "",
    "## Part",
    "",
    "```sh",
    "# a shell comment",
    "## not a heading",
    "```",
    "",
    "~~~~",
    "# tilde fence",
    "```",
    "~~~~",
    "",
    "    # indented code",
    "",
    "Setext",
    "======",
    "",
    "Sub",
    "---",
    "",
    "###### Deep",
    "",
    "#hashtag is text",
    "",
  ].join("\n");
  const out = demoteHeadings(md);
  expect(atxHeadings(out).map(([level]) => level)).toEqual([2, 3, 2, 3, 6]);
  expect(out).toContain("```sh\n# a shell comment\n## not a heading\n```");
  expect(out).toContain("~~~~\n# tilde fence\n```\n~~~~");
  expect(out).toContain("    # indented code");
  expect(out).toContain("## Setext");
  expect(out).toContain("### Sub");
  expect(out).toContain("#hashtag is text");
});

test("an unclosed fence is closed so it cannot swallow the next page", () => {
  expect(demoteHeadings("```\n# code")).toEndWith("```");
});

test("list items and quotes are not setext headings; a thematic break after a blank stays", () => {
  const out = demoteHeadings("- item\n---\n\n> quote\n===\n\ntext\n\n---\n");
  expect(out).toBe("- item\n---\n\n> quote\n===\n\ntext\n\n---\n");
});

test("an inline code span opening with backticks is no fence", () => {
  const out = demoteHeadings("```inline``` code\n# Heading");
  expect(out).toBe("```inline``` code\n## Heading");
});
