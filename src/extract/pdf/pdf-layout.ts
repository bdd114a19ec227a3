/**
 * Text runs of a page → lines in reading order. Runs on one baseline form a row; a row splits
 * into segments at gaps wider than a column gutter or a table's cell gap. A page whose segments
 * leave a vertical gutter free (two columns) is read band by band: what spans the gutter (a
 * title, an abstract, a figure caption) ends a band, and in each band the left column is read
 * before the right one.
 */
import type { PageText, TextRun } from "./pdf-source.ts";

/** A segment of a row: runs close enough to be one stretch of text. */
export interface Line {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  readonly y: number;
  readonly size: number;
  readonly bold: boolean;
  readonly mono: boolean;
  /** Characters, for weighting (the body's font size). */
  readonly chars: number;
  /** Segments of the same row (table cells), left to right; empty for a lone segment. */
  readonly cells: readonly Line[];
}

/** Gap (in font sizes) past which a row splits into segments. */
const SEGMENT_GAP = 1.6;
/** Gap past which two runs of a segment get a space between them. */
const SPACE_GAP = 0.12;

function joinRuns(runs: readonly TextRun[]): Line {
  let text = "";
  let prevEnd = Number.NEGATIVE_INFINITY;
  let boldChars = 0;
  let monoChars = 0;
  let chars = 0;
  let sizeWeight = 0;
  for (const r of runs) {
    const gap = r.x - prevEnd;
    if (text !== "" && gap > SPACE_GAP * r.size && !text.endsWith(" ") && !r.text.startsWith(" "))
      text += " ";
    text += r.text;
    prevEnd = Math.max(prevEnd, r.x + r.width);
    const n = r.text.trim().length;
    chars += n;
    sizeWeight += n * r.size;
    if (r.bold) boldChars += n;
    if (r.mono) monoChars += n;
  }
  const first = runs[0] as TextRun;
  // The row's size is that of most of its characters (a superscript does not make it small).
  const main = runs.reduce((a, b) => (b.text.length > a.text.length ? b : a), first);
  return {
    text: text.replace(/\s+/g, " ").trim(),
    x0: first.x,
    x1: prevEnd,
    y: main.y,
    size: chars > 0 ? Math.max(main.size, sizeWeight / chars) : main.size,
    bold: chars > 0 && boldChars >= 0.8 * chars,
    mono: chars > 0 && monoChars >= 0.8 * chars,
    chars,
    cells: [],
  };
}

/** Runs grouped by baseline (a run within half a font size of the row's baseline joins it). */
function rows(runs: readonly TextRun[]): TextRun[][] {
  const sorted = [...runs].sort((a, b) => b.y - a.y || a.x - b.x);
  const out: TextRun[][] = [];
  let row: TextRun[] = [];
  let rowY = 0;
  let rowSize = 0;
  for (const r of sorted) {
    if (row.length > 0 && Math.abs(r.y - rowY) <= 0.5 * Math.max(r.size, rowSize)) {
      row.push(r);
      if (r.size > rowSize) {
        rowSize = r.size;
        rowY = r.y;
      }
      continue;
    }
    if (row.length > 0) out.push(row);
    row = [r];
    rowY = r.y;
    rowSize = r.size;
  }
  if (row.length > 0) out.push(row);
  for (const r of out) r.sort((a, b) => a.x - b.x);
  return out;
}

function segments(row: readonly TextRun[]): Line[] {
  const out: Line[] = [];
  let current: TextRun[] = [];
  let end = Number.NEGATIVE_INFINITY;
  for (const r of row) {
    const size = Math.max(r.size, current.at(-1)?.size ?? 0);
    if (current.length > 0 && r.x - end > SEGMENT_GAP * size) {
      out.push(joinRuns(current));
      current = [];
    }
    current.push(r);
    end = Math.max(end, r.x + r.width);
  }
  if (current.length > 0) out.push(joinRuns(current));
  return out.filter((l) => l.text !== "");
}

function median(values: number[]): number {
  const sorted = values.sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The x of a free vertical gutter in the middle of the page, or null (one column). */
export function gutter(lines: readonly Line[], width: number): number | null {
  if (lines.length < 12) return null;
  let best: { x: number; crossing: number } | null = null;
  for (let x = 0.3 * width; x <= 0.7 * width; x += 2) {
    let left = 0;
    let right = 0;
    let crossing = 0;
    for (const l of lines) {
      if (l.x1 < x - 1) left++;
      else if (l.x0 > x + 1) right++;
      else crossing++;
    }
    if (left < 5 || right < 5 || crossing > 0.2 * lines.length) continue;
    // Both sides must hold text over much of the page, not a margin note or a label column.
    if (Math.min(left, right) < 0.25 * (left + right)) continue;
    if (!best || crossing < best.crossing) best = { x, crossing };
  }
  if (!best) return null;
  // Columns of prose, not of a table: the lines on each side are long.
  const g = best.x;
  const wide = (side: Line[]) => median(side.map((l) => l.x1 - l.x0)) >= 0.25 * width;
  return wide(lines.filter((l) => l.x1 < g - 1)) && wide(lines.filter((l) => l.x0 > g + 1))
    ? g
    : null;
}

/** A page's lines in reading order (segments of one row stay together as cells). */
export function pageLines(page: PageText): Line[] {
  const rowLines = rows(page.runs).map(segments);
  const flat = rowLines.flat();
  const g = gutter(flat, page.width);
  if (g === null) return rowLines.map(asLine).filter((l): l is Line => l !== null);
  const out: Line[] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  const flush = () => {
    out.push(...left, ...right);
    left = [];
    right = [];
  };
  for (const row of rowLines) {
    const spans = row.some((l) => l.x0 < g - 1 && l.x1 > g + 1);
    if (spans) {
      flush();
      const line = asLine(row);
      if (line) out.push(line);
      continue;
    }
    const l = asLine(row.filter((s) => s.x1 < g));
    const r = asLine(row.filter((s) => s.x0 > g));
    if (l) left.push(l);
    if (r) right.push(r);
  }
  flush();
  return out;
}

/** One line of a row's segments: a single segment, or a row of cells. */
function asLine(row: readonly Line[]): Line | null {
  const first = row[0];
  if (!first) return null;
  if (row.length === 1) return first;
  const last = row.at(-1) as Line;
  const chars = row.reduce((n, s) => n + s.chars, 0);
  return {
    text: row.map((s) => s.text).join(" "),
    x0: first.x0,
    x1: last.x1,
    y: first.y,
    size: row.reduce((m, s) => Math.max(m, s.size), 0),
    bold: row.every((s) => s.bold),
    mono: row.every((s) => s.mono),
    chars,
    cells: row,
  };
}
