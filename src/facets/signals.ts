/**
 * Cheap statistics of a page's main content, computed once and shared by every rule, score and
 * the learned model's features.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import {
  BUSINESS_WORDS,
  CALLS_TO_ACTION,
  DEVELOPER_WORDS,
  FORM_FIELDS,
  OPERATIONS_WORDS,
  TECHNICAL_WORDS,
} from "./rule-words.ts";
import { type Bag, bagsWithHead } from "./text-stats.ts";
import { countMatches, countWhitespaceSplit, splitLines, uRegex } from "./unicode-regex.ts";

/** Characters of text and markdown the scores read: enough to judge, bounded in cost. */
export const MAX_TEXT = 8000;
/** Characters of markdown `pageLinkShare` reads: a long table of contents, bounded in cost. */
export const PAGE_LINK_CHARS = 64_000;
/** Characters of text the "opening of the page" rules read. */
export const HEAD_CHARS = 6000;

export interface Signals {
  readonly words: number;
  readonly headings: readonly string[];
  readonly codeLines: number;
  readonly lines: number;
  readonly linkWords: number;
  /** Link words against the words of the markdown read (`MAX_TEXT` characters), or of the
   * page when it is shorter: how much of the page's opening is links, also on a long page. */
  readonly linkShare: number;
  /** Link words against all words of the page's markdown (its first `PAGE_LINK_CHARS`): a
   * table of contents behind a title page and a legal notice is mostly links, its opening not. */
  readonly pageLinkShare: number;
  readonly prices: number;
  readonly perPeriod: number;
  readonly ctas: number;
  readonly formFields: number;
  readonly devHits: number;
  readonly techHits: number;
  /** The systems-administration part of `techHits` (no database words). */
  readonly opsHits: number;
  readonly bizHits: number;
  readonly questionHeads: number;
  readonly orderedItems: number;
  readonly tableRows: number;
  readonly apiSigs: number;
  /** JSON-LD types, lowercased, without a vocabulary URL (`https://schema.org/Event` → `event`). */
  readonly jsonld: ReadonlySet<string>;
  readonly bag: Bag;
  /** Tokens of the first `HEAD_CHARS` characters of the text. */
  readonly headBag: Bag;
}

const PRICE = uRegex(
  String.raw`(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:€|eur|usd|gbp)\b)(?:\s*(?:/|per)\s*(?:mo(?:nth)?|yr|year|user|seat|month))?`,
  "gi",
);
const CURRENCY = uRegex(String.raw`[$€£¥]|\b(eur|usd|gbp)\b`, "i");
const PER_PERIOD = uRegex(
  String.raw`(/|per )\s?(mo|month|year|yr|user|seat)\b|billed (annually|monthly)`,
  "gi",
);
const HEADING = /^(#{1,6}) +(.+)$/gmu;
const MD_LINK = /\[([^\]]*)\]\([^)]*\)/gu;
const QUESTION_HEAD = /^#{1,6} .+\?\s*$/gmu;
const ORDERED = uRegex(String.raw`^\s*\d+[.)] `, "gm");
const TABLE_ROW = /^\|.*\|\s*$/gmu;
/** Signature-like lines of API reference: definitions, calls, and their section names. */
const API_SIGS = uRegex(
  String.raw`(^|\n)\s*(def |class |[A-Za-z_][\w.]*\([^)]*\)\s*(->|(?=\n?$))|Parameters\b|Returns\b|Synopsis\b|Arguments\b|Raises\b|Return type\b)`,
  "g",
);

/** Lines inside fenced blocks or indented by four spaces. */
function countCodeLines(md: string): number {
  let n = 0;
  let inCode = false;
  for (const line of splitLines(md)) {
    if (line.startsWith("```")) {
      inCode = !inCode;
      continue;
    }
    if (inCode || line.startsWith("    ")) n++;
  }
  return n;
}

/** Words of the markdown's link texts, and all its words with links read as their text. */
function linkWordCounts(md: string): { linkWords: number; words: number } {
  let linkWords = 0;
  for (const m of md.matchAll(MD_LINK)) linkWords += countWhitespaceSplit(m[1] ?? "");
  return { linkWords, words: countWhitespaceSplit(md.replace(MD_LINK, "$1")) };
}

export function jsonldKinds(types: readonly string[]): Set<string> {
  return new Set(types.map((t) => t.toLowerCase().split("/").at(-1) ?? ""));
}

/** `text` and `md`: the page's text and markdown cut to `MAX_TEXT`. */
export function computeSignals(doc: ExtractedDocument, text: string, md: string): Signals {
  const [bag, headBag] = bagsWithHead(text, HEAD_CHARS);
  const headings = [...md.matchAll(HEADING)].map((m) => (m[2] ?? "").trim());
  const { linkWords, words: mdWords } = linkWordCounts(md);
  const page =
    doc.markdown.length <= md.length
      ? { linkWords, words: mdWords }
      : linkWordCounts(doc.markdown.slice(0, PAGE_LINK_CHARS));
  const currency = CURRENCY.test(text);
  return {
    words: doc.words || countWhitespaceSplit(text),
    headings,
    codeLines: countCodeLines(md),
    lines: md.split("\n").length,
    linkWords,
    linkShare: linkWords / Math.max(Math.min(doc.words || mdWords, mdWords), 1),
    pageLinkShare: page.linkWords / Math.max(page.words, 1),
    prices: currency ? countMatches(PRICE, text) : 0,
    perPeriod: currency ? countMatches(PER_PERIOD, text) : 0,
    ctas: bag.count(CALLS_TO_ACTION),
    formFields: bag.count(FORM_FIELDS),
    devHits: bag.count(DEVELOPER_WORDS),
    techHits: bag.count(TECHNICAL_WORDS),
    opsHits: bag.count(OPERATIONS_WORDS),
    bizHits: bag.count(BUSINESS_WORDS),
    questionHeads: countMatches(QUESTION_HEAD, md),
    orderedItems: countMatches(ORDERED, md),
    tableRows: countMatches(TABLE_ROW, md),
    apiSigs: countMatches(API_SIGS, md),
    jsonld: jsonldKinds(doc.jsonldTypes),
    bag,
    headBag,
  };
}
