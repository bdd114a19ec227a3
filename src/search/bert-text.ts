/**
 * BERT's text rules, one character at a time, as the model's tokenizer (Hugging Face tokenizers,
 * BertNormalizer + BertPreTokenizer) applies them:
 * - normalisation: delete NUL, U+FFFD and control, format and private-use characters (not \t \n
 *   \r); whitespace becomes a space; CJK ideographs are padded with spaces; then NFD, nonspacing
 *   marks removed, lowercase (character by character, so no final-sigma rule);
 * - pre-tokenisation: split on whitespace, and isolate each punctuation character (ASCII
 *   punctuation and Unicode category P).
 *
 * JavaScript's Unicode tables are newer than the tokenizer's, so the few hundred characters on
 * which they disagree are listed in `bert-unicode-exceptions.ts` (generated against the native
 * tokenizer by `test/eval/embedding/bert-unicode-exceptions.ts`, checked in full by the test suite).
 */
import { CLASS_EXCEPTIONS, NORMALIZE_EXCEPTIONS } from "./bert-unicode-exceptions.ts";

/** How the pre-tokenizer treats a normalised character. */
export const CharClass = { Word: 0, Isolated: 1, Space: 2 } as const;
export type CharClass = (typeof CharClass)[keyof typeof CharClass];

const DELETED = /^(?:[^\P{Cc}\t\n\r]|[\p{Cf}\p{Co}\ufffd\0])$/u;
const SPACE = /^\p{White_Space}$/u;
const PUNCT = /^(?:[!-/:-@[-`{-~]|\p{P})$/u;
const MARKS = /\p{Mn}/gu;

/** The tokenizer's normalisation of one code point, by JavaScript's Unicode tables. */
export function normalizeCharByTables(cp: number): string {
  const ch = String.fromCodePoint(cp);
  if (DELETED.test(ch)) return "";
  if (SPACE.test(ch)) return " ";
  const padded = isChinese(cp);
  let out = "";
  for (const c of ch.normalize("NFD").replace(MARKS, "")) out += c.toLowerCase();
  return padded ? ` ${out} ` : out;
}

/** The pre-tokenizer's class of one normalised character, by JavaScript's Unicode tables. */
export function classOfCharByTables(cp: number): CharClass {
  const ch = String.fromCodePoint(cp);
  if (SPACE.test(ch)) return CharClass.Space;
  return PUNCT.test(ch) ? CharClass.Isolated : CharClass.Word;
}

const normalized = new Map<number, string>();
const classes = new Map<number, CharClass>();

/** The tokenizer's normalisation of one code point (memoised; exceptions applied). */
export function normalizeChar(cp: number): string {
  let out = normalized.get(cp);
  if (out === undefined) {
    out = NORMALIZE_EXCEPTIONS.get(cp) ?? normalizeCharByTables(cp);
    normalized.set(cp, out);
  }
  return out;
}

/** The pre-tokenizer's class of one normalised character (memoised; exceptions applied). */
export function classOfChar(cp: number): CharClass {
  let cls = classes.get(cp);
  if (cls === undefined) {
    cls = CLASS_EXCEPTIONS.get(cp) ?? classOfCharByTables(cp);
    classes.set(cp, cls);
  }
  return cls;
}

/** The CJK ideograph blocks BERT pads with spaces (so each ideograph is a word of its own). */
export function isChinese(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}
