/**
 * Lines of every page → markdown. Running heads and page numbers (the same line in the margin of
 * many pages) are dropped; lines gather into blocks: headings (a font larger than the body's, or
 * a short bold line, levels by size), paragraphs (re-flowed, hyphens at line ends rejoined),
 * list items, code (monospaced lines, fenced) and tables (three or more rows of aligned cells).
 */
import { type Line, pageLines } from "./pdf-layout.ts";
import type { PageText } from "./pdf-source.ts";

interface PlacedLine extends Line {
  readonly page: number;
}

type BlockKind = "heading" | "paragraph" | "item" | "code" | "table";

interface Block {
  kind: BlockKind;
  lines: PlacedLine[];
  /** Heading rank (1 = largest) and list marker, when they apply. */
  level?: number;
}

const BULLET = /^([•◦▪▫●○■□‣∙·–—*-]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+(?=\S)/;
const NUMBERED = /^\(?\d{1,3}[.)]\s/;
const MARGIN = 0.15;

/** Margin lines seen on many pages: running heads and feet, page numbers. */
function repeatedMargins(pages: readonly PageText[], lines: readonly PlacedLine[][]): Set<string> {
  const counts = new Map<string, number>();
  lines.forEach((pageLines, n) => {
    const h = (pages[n] as PageText).height;
    const seen = new Set<string>();
    for (const l of pageLines) {
      if (l.y < h * (1 - MARGIN) && l.y > h * MARGIN) continue;
      seen.add(marginKey(l));
    }
    for (const key of seen) counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  const enough = Math.max(3, 0.3 * pages.length);
  return new Set([...counts].filter(([, n]) => n >= enough).map(([k]) => k));
}

const marginKey = (l: Line) => l.text.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ");
const PAGE_NUMBER = /^(?:page\s+)?[\divxlc]+(?:\s*(?:of|\/)\s*\d+)?$/i;

function isMarginNoise(l: Line, height: number, repeated: Set<string>): boolean {
  if (l.y < height * (1 - MARGIN) && l.y > height * MARGIN) return false;
  return repeated.has(marginKey(l)) || PAGE_NUMBER.test(l.text.trim());
}

/** A lone number above or below everything else on its page, near the page's own number. */
function isPageNumber(l: Line, page: readonly Line[], index: number): boolean {
  if (!/^\d{1,4}$/.test(l.text) || Math.abs(Number(l.text) - (index + 1)) > 20) return false;
  return page.every((o) => o === l || o.y > l.y) || page.every((o) => o === l || o.y < l.y);
}

/** The body's font size: the size of most characters. */
function bodySize(lines: readonly Line[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) {
    const s = Math.round(l.size * 2) / 2;
    weight.set(s, (weight.get(s) ?? 0) + l.chars);
  }
  let best = 10;
  let most = -1;
  for (const [s, w] of weight) if (w > most) [best, most] = [s, w];
  return best;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function headingLike(l: Line, body: number): "size" | "bold" | null {
  if (l.mono || l.cells.length > 1 || !/\p{L}/u.test(l.text)) return null;
  if (l.size >= body * 1.15 && words(l.text) <= 20) return "size";
  if (
    l.bold &&
    Math.abs(l.size - body) < body * 0.15 &&
    words(l.text) <= 12 &&
    !/[,;]$/.test(l.text)
  )
    return "bold";
  return null;
}

/** A table of contents' line: dot leaders to a page number. */
const LEADER = /\s*(?:\.\s?){4,}\s*[\divxlc]+$/i;

function kindOf(l: Line, body: number): BlockKind {
  if (LEADER.test(l.text)) return "item";
  if (headingLike(l, body)) return "heading";
  if (l.mono) return "code";
  if (l.cells.length > 1) return "table";
  if (BULLET.test(l.text)) return "item";
  return "paragraph";
}

const sameSize = (a: Line, b: Line) => Math.abs(a.size - b.size) <= 0.1 * Math.max(a.size, b.size);

/** Whether `line` continues `block` (whose last line is `prev`). */
function continues(block: Block, prev: PlacedLine, line: PlacedLine, kind: BlockKind): boolean {
  const gap = prev.page === line.page ? prev.y - line.y : Number.NaN;
  const near = (k: number) => gap > 0 && gap <= k * Math.max(prev.size, line.size);
  switch (block.kind) {
    case "heading":
      return kind === "heading" && sameSize(prev, line) && prev.bold === line.bold && near(1.6);
    case "code":
      return kind === "code" && near(2);
    case "table":
      return kind === "table" && near(2.6);
    case "item": {
      if (kind !== "paragraph" || !sameSize(prev, line)) return false;
      const first = block.lines[0] as PlacedLine;
      return near(1.6) && line.x0 > first.x0 + 0.5 * first.size;
    }
    case "paragraph": {
      if (kind !== "paragraph" || !sameSize(prev, line)) return false;
      // An indented first line after a finished sentence starts a paragraph (no space between).
      const margin = Math.min(...block.lines.map((l) => l.x0));
      if (line.x0 > margin + 0.8 * line.size && /[.!?:]$/.test(prev.text)) return false;
      if (near(1.6)) return true;
      // Across a column or page break: a sentence that has not ended goes on.
      return !(gap > 0) && !/[.!?:]$/.test(prev.text) && /^\p{Ll}/u.test(line.text);
    }
  }
}

function blocks(lines: readonly PlacedLine[], body: number): Block[] {
  const out: Block[] = [];
  for (const line of lines) {
    const kind = kindOf(line, body);
    const last = out.at(-1);
    const prev = last?.lines.at(-1);
    if (last && prev && continues(last, prev, line, kind)) last.lines.push(line);
    else out.push({ kind, lines: [line] });
  }
  return out;
}

/** Heading levels: distinct heading sizes, largest first, then bold lines at body size. */
function levelHeadings(all: Block[], body: number): void {
  const sizes = [
    ...new Set(
      all
        .filter((b) => b.kind === "heading" && headingLike(b.lines[0] as Line, body) === "size")
        .map((b) => Math.round((b.lines[0] as Line).size * 2) / 2),
    ),
  ].sort((a, b) => b - a);
  for (const b of all) {
    if (b.kind !== "heading") continue;
    const first = b.lines[0] as Line;
    const text = b.lines.map((l) => l.text).join(" ");
    if (b.lines.length > 3 || words(text) > 24) {
      b.kind = "paragraph";
      continue;
    }
    const rank = sizes.indexOf(Math.round(first.size * 2) / 2);
    b.level = Math.min(4, rank >= 0 ? rank + 1 : sizes.length + 1);
  }
}

/** Lines re-flowed into one: a hyphen at a line's end joins a lower-case continuation. */
function flow(lines: readonly Line[]): string {
  let text = "";
  for (const l of lines) {
    if (text === "") text = l.text;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(l.text)) text = text.slice(0, -1) + l.text;
    else text += ` ${l.text}`;
  }
  return text;
}

const INLINE_SPECIAL = /[\\`*_[\]<]/g;
const LEADING_SPECIAL = /^(#|>|[-+*]\s|\d+[.)]\s)/;

function escapeText(text: string): string {
  const inline = text.replace(INLINE_SPECIAL, (c) => `\\${c}`);
  return inline.replace(LEADING_SPECIAL, (m) => `\\${m}`);
}

function renderItem(b: Block): string {
  const text = flow(b.lines).replace(LEADER, "");
  const marker = BULLET.exec(text)?.[0] ?? "";
  const rest = escapeText(text.slice(marker.length));
  return NUMBERED.test(marker)
    ? `${marker.replace(/[()]/g, "").trim().replace(")", ".")} ${rest}`
    : `- ${rest}`;
}

function renderCode(b: Block): string {
  const left = Math.min(...b.lines.map((l) => l.x0));
  const body = b.lines
    .map((l) => " ".repeat(Math.max(0, Math.round((l.x0 - left) / (0.6 * l.size)))) + l.text)
    .join("\n");
  const fence = body.includes("```") ? "~~~" : "```";
  return `${fence}\n${body}\n${fence}`;
}

/** Rows of aligned cells; fewer than three rows, or too many columns, stay plain lines. */
function renderTable(b: Block): string {
  const size = (b.lines[0] as Line).size;
  const starts = b.lines.flatMap((l) => l.cells.map((c) => c.x0)).sort((x, y) => x - y);
  const anchors: number[] = [];
  for (const x of starts)
    if (anchors.length === 0 || x - (anchors.at(-1) as number) > size) anchors.push(x);
  if (b.lines.length < 3 || anchors.length > 8)
    return b.lines.map((l) => escapeText(l.text)).join("\n\n");
  const column = (x: number) => {
    let k = 0;
    anchors.forEach((a, i) => {
      if (a <= x + size) k = i;
    });
    return k;
  };
  const rows = b.lines.map((l) => {
    const cells: string[] = anchors.map(() => "");
    for (const c of l.cells) {
      const k = column(c.x0);
      cells[k] = `${cells[k]} ${escapeText(c.text).replace(/\|/g, "\\|")}`.trim();
    }
    return `| ${cells.join(" | ")} |`;
  });
  const rule = `|${anchors.map(() => " --- ").join("|")}|`;
  return [rows[0], rule, ...rows.slice(1)].join("\n");
}

function render(b: Block): string {
  switch (b.kind) {
    case "heading":
      return `${"#".repeat(b.level ?? 2)} ${escapeText(flow(b.lines)).replace(/^\\?#+\s*/, "")}`;
    case "item":
      return renderItem(b);
    case "code":
      return renderCode(b);
    case "table":
      return renderTable(b);
    case "paragraph":
      return escapeText(flow(b.lines));
  }
}

export interface PdfMarkdown {
  readonly markdown: string;
  /** The first heading's text (a title when the metadata has none). */
  readonly firstHeading: string | null;
}

/** `only`: the markdown of that page (0-based) alone, read in the document's context (benchmarks). */
export function pdfMarkdown(pages: readonly PageText[], only?: number): PdfMarkdown {
  const perPage = pages.map((p, n) => pageLines(p).map((l): PlacedLine => ({ ...l, page: n })));
  const repeated = pages.length >= 3 ? repeatedMargins(pages, perPage) : new Set<string>();
  const lines = perPage.flatMap((pl, n) => {
    const kept = pl.filter((l) => !isMarginNoise(l, (pages[n] as PageText).height, repeated));
    return kept.filter((l) => !isPageNumber(l, kept, n));
  });
  const body = bodySize(lines);
  const all = blocks(only === undefined ? lines : lines.filter((l) => l.page === only), body);
  levelHeadings(all, body);
  const first = all.find((b) => b.kind === "heading");
  return {
    // The items of one list stay together (a tight list).
    markdown: all
      .map(
        (b, i) =>
          (i > 0 && b.kind === "item" && all[i - 1]?.kind === "item" ? "\n" : "\n\n") + render(b),
      )
      .join("")
      .trimStart(),
    firstHeading: first ? flow(first.lines) : null,
  };
}
