/** Markdown → plain text: markup stripped, code kept verbatim, table cells joined by spaces. */

const FENCE = /^(`{3,}|~{3,})/;
const TABLE_SEP = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s+/;
const BULLET = /^(\s*)(?:[-*+]|\d+[.)])\s+/;
const QUOTE = /^\s*>\s?/;
// Inline rewrites never cross a line break, so they run once over all prose lines joined.
const IMG = /!\[([^\]\n]*)\]\([^)\n]*\)/g;
const LINK = /\[((?:[^\]\n]|\](?!\())*)\]\((?:[^()\s]|\([^)\n]*\))*\)/g;
const TICKS = /`(`*)(.+?)`\1/g;
// Emphasis marks escaped with a backslash are text, not marks.
const EMPH = /(?<!\\)(\*\*|__|~~)(?=\S)(.+?)(?<=[^\s\\])\1/g;
const EM1 = /(?<![\w*\\])\*(?=\S)(.+?)(?<=[^\s\\])\*(?![\w*])/g;
const ESC = /\\([\\`*_{}[\]()#+\-.!|<>~=])/g;

function inline(prose: string): string {
  let s = prose;
  if (s.includes("](")) {
    s = s.replace(IMG, "");
    // Nested links (an image inside a link) unwrap from the inside out.
    for (let i = 0; i < 3 && s.includes("]("); i++) s = s.replace(LINK, "$1");
  }
  if (s.includes("`")) s = s.replace(TICKS, "$2");
  if (s.includes("**") || s.includes("__") || s.includes("~~")) s = s.replace(EMPH, "$2");
  if (s.includes("*")) s = s.replace(EM1, "$1");
  if (s.includes("\\")) s = s.replace(ESC, "$1");
  return s;
}

/** Lines longer than this skip the inline rewrites (their lazy patterns are quadratic in the
 * line's length: a 560 KB line of binary garbage took 33 s) for a linear strip of the marks. */
const MAX_INLINE_LINE = 4000;

function stripMarks(line: string): string {
  return line
    .replace(/!?\[([^\]\n]{0,500})\]\([^)\s]{0,2000}\)/g, "$1")
    .replace(/\*\*|__|~~|`+/g, "");
}

function tableRow(stripped: string): string {
  return stripped
    .replace(/^\||\|$/g, "")
    .split(" | ")
    .map((c) => c.trim())
    .join(" ")
    .replaceAll(" <br> ", " ")
    .replaceAll("<br>", " ");
}

export function markdownToText(md: string): string {
  const out: string[] = [];
  const prose: string[] = [];
  const proseAt: number[] = [];
  let fence: string | null = null;
  for (const raw of md.split("\n")) {
    let line = raw;
    const stripped = line.trim();
    const m = stripped.startsWith("`") || stripped.startsWith("~") ? FENCE.exec(stripped) : null;
    if (fence !== null) {
      if (m && stripped.startsWith(fence) && /^[`~]*$/.test(stripped)) fence = null;
      else out.push(line);
      continue;
    }
    if (m) {
      fence = m[1] ?? "```";
      continue;
    }
    if (stripped.includes("-") && TABLE_SEP.test(stripped)) continue;
    if (stripped === "---" || stripped === "***" || stripped === "___") continue;
    if (stripped.startsWith(">")) line = line.replace(QUOTE, "");
    if (line.trimStart().startsWith("#")) line = line.replace(HEADING, "");
    line = line.replace(BULLET, "$1");
    if (stripped.startsWith("|") && stripped.endsWith("|") && stripped.length > 1) {
      line = tableRow(stripped);
    }
    if (line.length > MAX_INLINE_LINE) {
      out.push(stripMarks(line).trimEnd());
      continue;
    }
    proseAt.push(out.length);
    out.push("");
    prose.push(line);
  }
  if (prose.length > 0) {
    const lines = inline(prose.join("\n")).split("\n");
    proseAt.forEach((at, i) => {
      out[at] = (lines[i] ?? "").trimEnd();
    });
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
