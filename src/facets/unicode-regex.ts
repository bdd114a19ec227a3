/**
 * Regular expressions whose `\w`, `\d` and `\b` mean what they mean for any language: JavaScript's
 * are ASCII-only even with the `u` flag, so `\bapi\b` would see a word boundary inside "APIの"
 * and `\w+` would cut "Schlüssel" in two. `uRegex` rewrites those escapes to Unicode classes
 * (a word character is a letter, a number or `_`) and always sets the `u` flag.
 */

const WORD_CLASS = "\\p{L}\\p{N}_";
const WORD = `[${WORD_CLASS}]`;
const NOT_WORD = `[^${WORD_CLASS}]`;
const BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;
const NOT_BOUNDARY = `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`;

const OUTSIDE: Readonly<Record<string, string>> = {
  w: WORD,
  W: NOT_WORD,
  d: "\\p{Nd}",
  D: "\\P{Nd}",
  b: BOUNDARY,
  B: NOT_BOUNDARY,
};
const INSIDE: Readonly<Record<string, string>> = { w: WORD_CLASS, d: "\\p{Nd}" };

/** The pattern with Unicode `\w \W \d \D \b \B` (inside a class only `\w` and `\d`). */
export function unicodePattern(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      i++;
      const table = inClass ? INSIDE : OUTSIDE;
      const mapped = table[next];
      if (mapped !== undefined) out += mapped;
      else if (inClass && (next === "W" || next === "D" || next === "b")) {
        throw new Error(`unicodePattern: \\${next} inside a character class: ${pattern}`);
      } else out += `\\${next}`;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  return out;
}

/** `new RegExp(pattern, flags + "u")` with Unicode-aware `\w`, `\d` and `\b`. */
export function uRegex(pattern: string, flags = ""): RegExp {
  return new RegExp(unicodePattern(pattern), flags.includes("u") ? flags : `${flags}u`);
}

/** Word tokens as `\w+` finds them. */
export const WORD_RUN = /[\p{L}\p{N}_]+/gu;

/** Number of non-overlapping matches of a global regex. */
export function countMatches(re: RegExp, text: string): number {
  if (!re.global) throw new Error("countMatches needs a global regex");
  re.lastIndex = 0;
  let n = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    n++;
    if (m[0] === "") re.lastIndex++;
  }
  re.lastIndex = 0;
  return n;
}

/** Non-overlapping occurrences of `needle` in `haystack` (Python's `str.count`). */
export function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  let at = haystack.indexOf(needle);
  while (at !== -1) {
    n++;
    at = haystack.indexOf(needle, at + needle.length);
  }
  return n;
}

/** Python's `str.splitlines()` line breaks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: file, group and record separators break lines
export const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** The lines of a text as Python's `str.splitlines()` gives them: no empty last line after a
 * final line break. */
export function splitLines(text: string): string[] {
  const lines = text.split(LINE_BREAK);
  if (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines;
}

/** Python's `str.split()`: runs of whitespace, no empty items. */
export function splitWhitespace(text: string): string[] {
  const parts = text.split(/\s+/);
  return parts.filter((p) => p.length > 0);
}

/** The first `n` code points of `text`: Python's `text[:n]` (a slice of UTF-16 units would cut
 * fewer characters from a text with emoji or other astral characters, and could split a pair). */
export function codePointPrefix(text: string, n: number): string {
  if (text.length <= n) return text;
  let units = 0;
  for (let cp = 0; cp < n && units < text.length; cp++) {
    const c = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1); // NaN past the end
    units += c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, units);
}

/** JavaScript's `\s`: the Unicode white space and line terminators. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `splitWhitespace(text).length` without building the items (the runs of non-space). */
export function countWhitespaceSplit(text: string): number {
  let n = 0;
  let inItem = false;
  for (let i = 0; i < text.length; i++) {
    const item = !isSpace(text.charCodeAt(i));
    if (item && !inItem) n++;
    inItem = item;
  }
  return n;
}
