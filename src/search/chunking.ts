/**
 * Heading-aware markdown chunking sized for all-MiniLM-L6-v2 (256 word pieces). Pure: runs in the
 * crawl workers, given the model's word-piece counter (`loadTokenCounter`).
 *
 * Each heading starts a section; small neighbouring sections under one parent are merged, so a
 * chunk's heading is the common path of what it holds ("Install > Linux") and deeper headings stay
 * in its text. Blocks are packed greedily; a block larger than a chunk is split (code at line
 * boundaries with its fences repeated, tables by rows with their header, prose by lines, then
 * sentences, then words), and prose chunks start with the last sentences of the previous chunk.
 *
 * Chunk `text` never repeats the chunk's heading path: embed `embeddingText(chunk, title)`, which
 * puts the title and heading path first. The token budget leaves room for that context and for
 * [CLS]/[SEP], so the whole embedding input fits the model's window.
 */
import { type Piece, packWithOverlap, splitBlock } from "./chunk-splitting.ts";
import { anchorsOnly } from "./link-anchors.ts";
import {
  type Block,
  blockText,
  parseSections,
  type Section,
  sectionTokens,
} from "./markdown-sections.ts";
import { MODEL_MAX_TOKENS } from "./model-files.ts";
import type { TokenCounter } from "./word-pieces.ts";

export interface Chunk {
  readonly index: number;
  /** Heading path, e.g. "Install > Linux"; "" before the first heading. */
  readonly heading: string;
  readonly text: string;
  /** Word pieces in `text` (no special tokens). */
  readonly tokens: number;
}

export interface ChunkOptions {
  readonly title?: string | null;
  /** The model's window in word pieces, [CLS] and [SEP] included. */
  readonly maxTokens?: number;
  /** Word pieces of trailing sentences repeated at the start of the next prose chunk. */
  readonly overlapTokens?: number;
}

const HEADING_SEPARATOR = " > ";

/** The string to embed: title and heading path as context, then the chunk text, its links
 * reduced to their anchors (link-anchors.ts). */
export function embeddingText(
  chunk: Pick<Chunk, "heading" | "text">,
  title?: string | null,
): string {
  const context = contextOf(title, chunk.heading);
  const text = anchorsOnly(chunk.text);
  return context ? `${context}\n\n${text}` : text;
}

function contextOf(title: string | null | undefined, heading: string): string {
  // Headings keep their links in the chunk's heading path; the model reads the anchors.
  const path = heading ? heading.split(HEADING_SEPARATOR).map(anchorsOnly) : [];
  const pageTitle = title?.trim() ?? "";
  // The page's H1 is usually its title without the site's name, which every page repeats.
  if (pageTitle === "" || (path.length > 0 && titleHolds(pageTitle, path[0] ?? ""))) {
    return path.join(HEADING_SEPARATOR);
  }
  return [pageTitle, ...path].join(HEADING_SEPARATOR);
}

/** Separators between a page's own title and its site's name ("os — Python 3.11 docs"). */
const TITLE_SEPARATORS = [" — ", " – ", " - ", " | ", " · ", ": "];

/** Whether `title` is `heading`, alone or beside the site's name: "`os` — Misc interfaces" in
 * "os — Misc interfaces — Python 3.11.2 documentation". */
function titleHolds(title: string, heading: string): boolean {
  const t = plain(title);
  const h = plain(heading);
  if (h === "" || t === h) return t === h;
  return TITLE_SEPARATORS.some((sep) => t.startsWith(h + sep) || t.endsWith(sep + h));
}

function plain(text: string): string {
  return text.replace(/[`*_]/g, "").replace(/\s+/g, " ").trim().toLowerCase();
}

function commonPrefix(paths: readonly (readonly string[])[]): readonly string[] {
  const first = paths[0] ?? [];
  let n = first.length;
  for (const path of paths.slice(1)) {
    n = Math.min(n, path.length);
    for (let j = 0; j < n; j++) {
      if (path[j] !== first[j]) {
        n = j;
        break;
      }
    }
  }
  return first.slice(0, n);
}

const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((t, i) => t === b[i]);

export function chunkMarkdown(
  markdown: string,
  counter: TokenCounter,
  options: ChunkOptions = {},
): Chunk[] {
  const { title = null, maxTokens = MODEL_MAX_TOKENS, overlapTokens = 32 } = options;
  const sections = parseSections(markdown);
  for (const section of sections) {
    for (const block of section.blocks) block.tokens = counter.count(blockText(block));
    if (section.headingLine !== null) {
      const line = section.headingLine;
      section.blocks.unshift({
        kind: "heading",
        lines: [line],
        closed: true,
        tokens: counter.count(line),
      });
    }
  }

  const budgets = new Map<string, number>();
  const budgetFor = (path: readonly string[]): number => {
    const heading = path.join(HEADING_SEPARATOR);
    let budget = budgets.get(heading);
    if (budget === undefined) {
      const context = contextOf(title, heading);
      const contextTokens = context ? counter.count(context) + 1 : 0;
      // A long title + heading path (Cyrillic headings run to 130+ word pieces) shrinks the
      // budget so that embeddingText() still fits the window; floored for absurd contexts.
      budget = Math.max(maxTokens >> 3, maxTokens - 2 - contextTokens);
      budgets.set(heading, budget);
    }
    return budget;
  };

  const chunks: Chunk[] = [];
  for (const group of groupSections(sections, maxTokens, budgetFor)) {
    const path = commonPrefix(group.map((s) => s.path));
    const budget = budgetFor(path);
    const pieces: Piece[] = [];
    for (const section of group) {
      for (const block of section.blocks) {
        // The chunk's own heading lives in `heading`; deeper headings stay in the text.
        if (block.kind === "heading" && samePath(section.path, path)) continue;
        pieces.push(...piecesOf(block, counter, budget, overlapTokens));
      }
    }
    const heading = path.join(HEADING_SEPARATOR);
    for (const { text, tokens } of packWithOverlap(pieces, counter, budget, overlapTokens)) {
      chunks.push({ index: chunks.length, heading, text, tokens });
    }
  }
  return chunks;
}

function piecesOf(block: Block, counter: TokenCounter, budget: number, overlap: number): Piece[] {
  if (block.tokens <= budget) return [{ text: blockText(block), tokens: block.tokens }];
  // Prose pieces leave room for the overlap carried over from the previous piece.
  const room = block.kind === "code" || block.kind === "table" ? budget : budget - overlap;
  return splitBlock(block, counter, Math.max(budget >> 1, room));
}

/** Consecutive sections merged while small, related (one parent) and within the budget. */
function groupSections(
  sections: readonly Section[],
  maxTokens: number,
  budgetFor: (path: readonly string[]) => number,
): Section[][] {
  const small = Math.max(1, maxTokens >> 2);
  const groups: Section[][] = [];
  for (const section of sections) {
    const group = groups[groups.length - 1];
    if (group !== undefined) {
      const head = group[0] as Section;
      const prefix = commonPrefix([...group.map((g) => g.path), section.path]);
      const groupTokens = group.reduce((sum, g) => sum + sectionTokens(g), 0);
      const tokens = sectionTokens(section);
      const ownHeading = head.blocks[0]?.kind === "heading" ? head.blocks[0].tokens : 0;
      const related = prefix.length >= head.path.length - 1;
      const isSmall = tokens < small || groupTokens < small;
      if (related && isSmall && groupTokens + tokens - ownHeading <= budgetFor(prefix)) {
        group.push(section);
        continue;
      }
    }
    groups.push([section]);
  }
  return groups;
}
