/**
 * Demoting the headings of a page's markdown one level, so pages nest under a heading of their
 * own in a bundle: ATX headings gain a `#` (level 6 stays 6), setext headings become ATX one level
 * down. Fenced and indented code is left untouched: a `#` inside a code block is not a heading.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** Lines that cannot be the text of a setext heading (block quotes, list items, indented code). */
const NOT_PARAGRAPH = /^( {0,3}([>|*+-]|\d{1,9}[.)])(\s|$)| {4,}|\t)/;

const closes = (line: string, fence: string) => {
  const stripped = line.trim();
  const char = fence.charAt(0);
  return stripped.startsWith(fence) && [...stripped].every((c) => c === char);
};

export function demoteHeadings(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let prevText = false; // the previous line could open a setext heading (paragraph text)
  for (const line of markdown.split("\n")) {
    if (fence !== null) {
      out.push(line);
      if (closes(line, fence)) fence = null;
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening?.[1] && !(opening[1].startsWith("`") && (opening[2] ?? "").includes("`"))) {
      fence = opening[1];
      out.push(line);
      prevText = false;
      continue;
    }
    if (!line.trim()) {
      out.push(line);
      prevText = false;
      continue;
    }
    if ((line.startsWith("    ") || line.startsWith("\t")) && !prevText) {
      out.push(line); // indented code
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      const level = Math.min(6, (atx[2] ?? "").length + 1);
      out.push(`${atx[1] ?? ""}${"#".repeat(level)}${atx[3] ?? ""}`);
      prevText = false;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && prevText && out.length > 0) {
      const title = (out.pop() ?? "").trim();
      out.push(`${(setext[1] ?? "").startsWith("=") ? "##" : "###"} ${title}`);
      prevText = false;
      continue;
    }
    out.push(line);
    prevText = !NOT_PARAGRAPH.test(line);
  }
  if (fence !== null) out.push(fence); // close a dangling fence so it cannot swallow the next page
  return out.join("\n");
}
