import { expect, test } from "bun:test";
import { pdfMarkdown } from "../../../src/extract/pdf/pdf-markdown.ts";
import type { PageText, TextRun } from "../../../src/extract/pdf/pdf-source.ts";

/** A run of `text` at (x, y); widths as a 0.5 em average character. */
function run(text: string, x: number, y: number, size = 10, face: Partial<TextRun> = {}): TextRun {
  return {
    text,
    x,
    y,
    size,
    width: text.length * size * 0.5,
    font: "f",
    bold: false,
    mono: false,
    ...face,
  };
}
const page = (runs: TextRun[]): PageText => ({ width: 612, height: 792, runs });

test("heading levels by size, bold headings below them, hyphens rejoined, markdown escaped", () => {
  const md = pdfMarkdown([
    page([
      run("Field Guide", 72, 720, 24),
      run("Chapter one", 72, 680, 16),
      run("A bold aside", 72, 650, 10, { bold: true }),
      run("The *first* para-", 72, 630),
      run("graph goes on [here] with_under and", 72, 617),
      run("ends.", 72, 604),
      run("# not a heading", 72, 570),
      run("Chapter two", 72, 530, 16),
    ]),
  ]).markdown;
  expect(md).toBe(
    [
      "# Field Guide",
      "## Chapter one",
      "### A bold aside",
      "The \\*first\\* paragraph goes on \\[here\\] with\\_under and ends.",
      "\\# not a heading",
      "## Chapter two",
    ].join("\n\n"),
  );
});

test("contents lines lose their leaders; page numbers and running heads go; a sentence crosses pages", () => {
  const head = (n: number) => run(`Field Guide, page ${n}`, 250, 760, 9);
  const pages = [
    page([
      head(1),
      run("1 Getting started . . . . . . . . 3", 72, 700),
      run("2 Going further . . . . . . . . . 9", 72, 687),
      run("The sentence that starts on this page", 72, 600),
      run("1", 300, 60),
    ]),
    page([head(2), run("ends on the next one.", 72, 700), run("2", 300, 60)]),
    page([head(3), run("Last page.", 72, 700), run("3", 300, 60)]),
  ];
  expect(pdfMarkdown(pages).markdown).toBe(
    [
      "- 1 Getting started\n- 2 Going further",
      "The sentence that starts on this page ends on the next one.",
      "Last page.",
    ].join("\n\n"),
  );
});

test("the first heading is offered as a title", () => {
  const out = pdfMarkdown([
    page([
      run("Untitled memo", 72, 700, 18),
      run("Body text long enough to be the body of it.", 72, 670),
    ]),
  ]);
  expect(out.firstHeading).toBe("Untitled memo");
});

test("an indented first line after a finished sentence starts a paragraph", () => {
  const md = pdfMarkdown([
    page([
      run("First paragraph, its only", 72, 700),
      run("two lines end here.", 72, 687),
      run("Second paragraph starts indented", 87, 674),
      run("and goes on at the margin.", 72, 661),
    ]),
  ]).markdown;
  expect(md).toBe(
    "First paragraph, its only two lines end here.\n\nSecond paragraph starts indented and goes on at the margin.",
  );
});
