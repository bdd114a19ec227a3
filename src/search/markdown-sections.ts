/**
 * Markdown cut into sections (one per heading, with its heading path) of blocks: paragraphs,
 * fenced code and tables, each kept whole here. Only what chunking needs of markdown is parsed:
 * ATX headings, fences (``` or ~~~, at any indentation: the extractor indents fences inside list
 * items), and runs of lines starting with `|`.
 */

export type BlockKind = "text" | "code" | "table" | "heading";

export interface Block {
  readonly kind: BlockKind;
  readonly lines: readonly string[];
  /** Code blocks: whether a closing fence ended it (an unclosed fence runs to the end). */
  readonly closed: boolean;
  tokens: number;
}

export interface Section {
  /** Heading texts from the top level down, e.g. ["Install", "Linux"]; [] before any heading. */
  readonly path: readonly string[];
  /** The heading line as written (`## Linux`), null for the part before the first heading. */
  readonly headingLine: string | null;
  readonly blocks: Block[];
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^[ \t]*(`{3,}|~{3,})(.*)$/;

export function blockText(block: Block): string {
  return block.lines.join("\n");
}

export function sectionTokens(section: Section): number {
  let total = 0;
  for (const block of section.blocks) total += block.tokens;
  return total;
}

const block = (kind: BlockKind, lines: string[], closed = true): Block => ({
  kind,
  lines,
  closed,
  tokens: 0,
});

/** Sections that hold at least one block, in document order. Token counts are left at 0. */
export function parseSections(markdown: string): Section[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const sections: Section[] = [{ path: [], headingLine: null, blocks: [] }];
  const stack: [number, string][] = [];
  let para: string[] = [];
  const current = (): Section => sections[sections.length - 1] as Section;
  const flush = () => {
    if (para.length > 0) current().blocks.push(block("text", para));
    para = [];
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const stripped = line.trim();
    const first = stripped[0];
    const fence = first === "`" || first === "~" ? FENCE.exec(line) : null;
    if (fence) {
      flush();
      const marker = fence[1] as string;
      const body = [line];
      let closed = false;
      for (i += 1; i < lines.length && !closed; i += 1) {
        const next = lines[i] as string;
        body.push(next);
        const close = FENCE.exec(next);
        closed =
          close !== null &&
          close[1]?.[0] === marker[0] &&
          (close[1]?.length ?? 0) >= marker.length &&
          (close[2] ?? "").trim() === "";
      }
      current().blocks.push(block("code", body, closed));
      continue;
    }
    if (first === "|") {
      flush();
      const rows: string[] = [];
      while (i < lines.length && (lines[i] as string).trimStart().startsWith("|")) {
        rows.push(lines[i] as string);
        i += 1;
      }
      current().blocks.push(block("table", rows));
      continue;
    }
    const heading = first === "#" ? HEADING.exec(line) : null;
    if (heading) {
      flush();
      const level = (heading[1] as string).length;
      while (stack.length > 0 && (stack[stack.length - 1] as [number, string])[0] >= level) {
        stack.pop();
      }
      stack.push([level, heading[2]?.trim() || "…"]);
      sections.push({ path: stack.map(([, t]) => t), headingLine: stripped, blocks: [] });
    } else if (stripped !== "") {
      para.push(line.trimEnd());
    } else {
      flush();
    }
    i += 1;
  }
  flush();
  return sections.filter((s) => s.blocks.length > 0);
}
