/** Reading markdown structure in tests: ATX headings and fenced blocks outside code. */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;

const closes = (line: string, fence: string) => {
  const s = line.trim();
  return s.startsWith(fence) && [...s].every((c) => c === fence.charAt(0));
};

/** [level, line] of every ATX heading outside fenced code. */
export function atxHeadings(markdown: string): [number, string][] {
  const out: [number, string][] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    if (fence) {
      if (closes(line, fence)) fence = null;
      continue;
    }
    const m = FENCE.exec(line);
    if (m?.[1]) {
      fence = m[1];
      continue;
    }
    const h = HEADING.exec(line);
    if (h?.[1]) out.push([h[1].length, line]);
  }
  return out;
}

/** Every fenced code block, fences included. */
export function fencedBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    if (fence) {
      current.push(line);
      if (closes(line, fence)) {
        blocks.push(current.join("\n"));
        current = [];
        fence = null;
      }
      continue;
    }
    const m = FENCE.exec(line);
    if (m?.[1]) {
      fence = m[1];
      current = [line];
    }
  }
  return blocks;
}

export interface ParsedBundle {
  front: Record<string, unknown>;
  pages: { title: string; body: string }[];
  closing: string;
}

/** A domain bundle: its frontmatter, its pages (split on level-1 headings outside code), its end. */
export function parseBundle(text: string): ParsedBundle {
  if (!text.startsWith("---\n")) throw new Error("no frontmatter");
  const end = text.indexOf("\n---\n", 4);
  const front = Bun.YAML.parse(text.slice(4, end)) as Record<string, unknown>;
  const rest = text.slice(end + 5);
  const cut = rest.lastIndexOf("\n---\n");
  const body = rest.slice(0, cut);
  const closing = rest.slice(cut + 5);
  const pages: { title: string; body: string }[] = [];
  let fence: string | null = null;
  let current: string[] = [];
  let title: string | null = null;
  for (const line of body.split("\n")) {
    const m = FENCE.exec(line);
    if (fence) {
      if (closes(line, fence)) fence = null;
    } else if (m?.[1]) {
      fence = m[1];
    } else if (line.startsWith("# ")) {
      if (title !== null) pages.push({ title, body: current.join("\n") });
      title = line.slice(2);
      current = [];
      continue;
    }
    current.push(line);
  }
  if (title !== null) pages.push({ title, body: current.join("\n") });
  return { front, pages, closing };
}
