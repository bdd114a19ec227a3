/**
 * Markdown links reduced to their anchors, for the text the embedding model reads. A link's
 * destination is word pieces of URL (`../library/os.path.html#os.path.join "os.path.join"`), not
 * meaning: on the Python docs link targets were 36% of the word pieces the model was given
 * (test/bench/embedding-levers.ts), paid for in model time and diluting the vector. The chunk's
 * stored text keeps them (text search, the page's markdown); only the embedding input drops them.
 *
 * Inline links and images (`[anchor](dest "title")`, `![alt](src)`) become their anchor or alt
 * text; an autolink (`<https://…>`) is dropped. Anything that does not parse as a link stays as
 * it is. Pure, one pass over the string.
 */

/** `text` with every inline link replaced by its anchor text. */
export function anchorsOnly(text: string): string {
  if (!text.includes("](") && !text.includes("<http")) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "[" || (ch === "!" && text[i + 1] === "[")) {
      const open = ch === "!" ? i + 1 : i;
      const link = parseInlineLink(text, open);
      if (link !== null) {
        out += link.anchor;
        i = link.end;
        continue;
      }
    } else if (ch === "<" && text.startsWith("http", i + 1)) {
      const close = text.indexOf(">", i);
      if (close > 0 && !/[\s<]/.test(text.slice(i + 1, close))) {
        i = close + 1;
        continue;
      }
    }
    out += ch;
    i++;
  }
  return out;
}

interface InlineLink {
  /** The anchor, its own links reduced too (an image inside a link). */
  readonly anchor: string;
  /** Index just past the closing parenthesis. */
  readonly end: number;
}

/** The link whose `[` is at `open`, or null when no `](destination)` follows its anchor. */
function parseInlineLink(text: string, open: number): InlineLink | null {
  let depth = 0;
  let i = open;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (ch === "[") depth++;
    else if (ch === "]" && --depth === 0) break;
    else if (ch === "\n" && text[i + 1] === "\n") return null; // a link never spans paragraphs
  }
  if (depth !== 0 || text[i + 1] !== "(") return null;
  const end = destinationEnd(text, i + 2);
  if (end === null) return null;
  return { anchor: anchorsOnly(text.slice(open + 1, i)), end };
}

/** Index past the `)` closing a destination (and optional title) starting at `start`. */
function destinationEnd(text: string, start: number): number | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") {
      i++;
    } else if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === "\n") {
      return null;
    } else if ((ch === '"' || ch === "'") && text[i - 1] === " ") {
      quote = ch;
    } else if (ch === "(") {
      depth++;
    } else if (ch === ")") {
      if (depth === 0) return i + 1;
      depth--;
    }
  }
  return null;
}
