/**
 * The graded facets of one page, floats in [0, 1] rounded to 3 decimals:
 *
 * - technicality: how much specialist knowledge the text assumes. Code share (code lines /
 *   lines), technical vocabulary rate (developer and IT terms per word) and identifier rate
 *   (tokens like `snake_case`, `dotted.names`, `--flags`, `/paths`, `f()`). 0 lay reader,
 *   1 specialist.
 * - depth: how substantive and specific the page is. Length on a log scale (50 words → 0,
 *   ~3000 → 1), structure (headings, numbered lists, tables, code) and specificity (share of
 *   numbers and capitalised names inside sentences). 0 thin, 1 substantive.
 * - promotional: density of sales language: calls to action, hype words, prices, exclamation
 *   marks, addressing the reader, plus a prior for marketing page types. 0 neutral, 1 sales copy.
 */
import { HYPE_WORDS, READER_ADDRESS } from "./rule-words.ts";
import type { Signals } from "./signals.ts";
import { countOccurrences, splitWhitespace } from "./unicode-regex.ts";
import type { PageType } from "./vocabulary.ts";

/** Clamped to [0, 1] and rounded to 3 decimals. */
export function unitScore(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
}

export interface TokenStats {
  /** Identifier-like tokens. */
  readonly identifiers: number;
  readonly numbers: number;
  /** Capitalised words that do not start a sentence. */
  readonly names: number;
}

const PLAIN_WORD = /^\p{L}+$/u;
const LOWERCASE = /\p{Lowercase}/u;
const UPPER = /[\p{Uppercase}\p{Lt}]/u;
const ALNUM = /^[\p{L}\p{N}]+$/u;
const DIGIT = /^\p{Nd}/u;
const CAMEL = /[a-z][A-Z]/;
const EDGE_PUNCT = /^[,;:()[\]{}"']+|[,;:()[\]{}"']+$/g;

/** Python's `str.islower()`: a cased character, and none upper- or titlecase. */
function isLower(s: string): boolean {
  return LOWERCASE.test(s) && !UPPER.test(s);
}

function isIdentifier(tok: string, t: string): boolean {
  const c0 = t[0] ?? "";
  return (
    t.includes("_") ||
    tok.includes("()") ||
    t.startsWith("--") ||
    (c0 === "/" && countOccurrences(t, "/") >= 2) ||
    (t.slice(1, -1).includes(".") &&
      ALNUM.test(t.replaceAll(".", "")) &&
      !DIGIT.test(t.at(-1) ?? "") &&
      isLower(t)) ||
    (LOWERCASE.test(c0) && !isLower(t) && CAMEL.test(t))
  );
}

export function tokenStats(text: string): TokenStats {
  let identifiers = 0;
  let numbers = 0;
  let names = 0;
  let prevEnd = true;
  for (const tok of splitWhitespace(text)) {
    if (PLAIN_WORD.test(tok) && isLower(tok)) {
      prevEnd = false; // a plain word: none of the three, and no sentence end
      continue;
    }
    const t = tok.replace(EDGE_PUNCT, "");
    if (!t) continue;
    const c0 = t[0] ?? "";
    if (DIGIT.test(c0)) numbers++;
    else if (isIdentifier(tok, t)) identifiers++;
    else if (UPPER.test(c0) && !prevEnd) names++;
    prevEnd = ".!?".includes(tok.at(-1) ?? "");
  }
  return { identifiers, numbers, names };
}

export function technicality(sig: Signals, identifiers: number, why: string[]): number {
  const words = Math.max(sig.words, 1);
  const codeShare = sig.codeLines / Math.max(sig.lines, 1);
  const vocab = (sig.devHits + sig.techHits) / words;
  const ident = identifiers / words;
  why.push(
    `code share ${codeShare.toFixed(2)}, tech vocab ${vocab.toFixed(3)}, identifiers ${ident.toFixed(3)}`,
  );
  return unitScore(
    0.4 * Math.min(1, codeShare / 0.3) +
      0.35 * Math.min(1, vocab / 0.04) +
      0.25 * Math.min(1, ident / 0.05),
  );
}

export function depth(sig: Signals, stats: TokenStats, why: string[]): number {
  const length = sig.words <= 50 ? 0 : Math.min(1, Math.log(sig.words / 50) / Math.log(60));
  const structure = Math.min(
    1,
    sig.headings.length / 8 +
      sig.orderedItems / 20 +
      sig.tableRows / 20 +
      (sig.codeLines ? 0.2 : 0),
  );
  const specific = Math.min(1, (stats.numbers + stats.names) / Math.max(sig.words, 1) / 0.12);
  why.push(
    `length ${length.toFixed(2)}, structure ${structure.toFixed(2)}, specificity ${specific.toFixed(2)}`,
  );
  return unitScore(0.6 * length + 0.2 * structure + 0.2 * specific);
}

/** Marketing page types start with some promotional score. */
const PROMOTIONAL_PRIOR: Partial<Record<PageType, number>> = {
  landing: 0.35,
  pricing: 0.3,
  product: 0.3,
  homepage: 0.25,
  integration: 0.15,
  event: 0.15,
  case_study: 0.15,
  careers: 0.1,
};

export function promotional(type: PageType, sig: Signals, text: string, why: string[]): number {
  const per100 = Math.max(1, Math.max(sig.words, 1) / 100);
  const n = Math.max(sig.bag.n, 1);
  const hype = sig.bag.count(HYPE_WORDS) / n;
  const you = sig.bag.count(READER_ADDRESS) / n;
  const cta = sig.ctas / per100;
  const excl = countOccurrences(text, "!") / per100;
  const price = Math.min(1, sig.prices / per100 / 2);
  const prior = PROMOTIONAL_PRIOR[type] ?? 0;
  why.push(
    `prior ${prior}, hype ${hype.toFixed(3)}, you ${you.toFixed(3)}, cta/100w ${cta.toFixed(2)}, ` +
      `!/100w ${excl.toFixed(2)}, prices ${sig.prices}`,
  );
  return unitScore(
    prior +
      0.3 * Math.min(1, hype / 0.03) +
      0.15 * Math.min(1, you / 0.04) +
      0.15 * Math.min(1, cta) +
      0.05 * Math.min(1, excl) +
      0.1 * price,
  );
}
