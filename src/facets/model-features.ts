/**
 * The learned model's input: sparse binary feature tokens of a page by group: title words and
 * bigrams (`t`), meta description (`d`), heading words (`h`), main-text words (`b`) and binned
 * text statistics, JSON-LD and Open Graph types (`f`). The URL is left to the rules: a model
 * that learned URL tokens from a few hundred labeled pages would judge an unfamiliar site by its
 * URL layout. `y` (the decided type) is added for the format and audience heads.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import type { Signals } from "./signals.ts";

export type FeatureGroup = "t" | "d" | "h" | "b" | "f" | "y";
export const FEATURE_GROUPS: readonly FeatureGroup[] = ["t", "d", "h", "b", "f", "y"];
export type PageFeatures = Partial<Record<FeatureGroup, readonly string[]>>;

/** A word: starts with a letter (or a non-decimal number sign), then word characters, `'`, `-`. */
const TOKEN = /[\p{L}\p{Nl}\p{No}][\p{L}\p{N}_'’-]*/gu;
const MAX_HEADINGS = 30;
const MAX_BODY_TOKENS = 1500;
const MAX_DESCRIPTION_TOKENS = 60;
const YOU = ["you", "your", "you'll", "you're", "yours"];
const FIRST_PERSON = ["i", "my", "me", "i'm", "i've"];

function words(s: string | null | undefined): string[] {
  return s ? (s.toLowerCase().match(TOKEN) ?? []) : [];
}

/** Index of the first edge `x` is below, else the number of edges. */
export function bin(x: number, edges: readonly number[]): number {
  const i = edges.findIndex((e) => x < e);
  return i === -1 ? edges.length : i;
}

/** Feature tokens of a page by group (all but `y`). */
export function pageFeatures(doc: ExtractedDocument, sig: Signals, hasDate: boolean): PageFeatures {
  const title = words(doc.title);
  const t = [...title];
  for (let i = 1; i < title.length; i++) t.push(`${title[i - 1]}_${title[i]}`);
  const h = sig.headings.slice(0, MAX_HEADINGS).flatMap((x) => words(x));
  const bag = sig.bag;
  const b = [...bag.counts.keys()].slice(0, MAX_BODY_TOKENS);
  const total = Math.max(sig.words, 1);
  const share = (list: readonly string[]): number =>
    bag.n ? list.reduce((s, w) => s + bag.get(w), 0) / bag.n : 0;
  const f = [
    `words${bin(sig.words, [50, 150, 400, 1000, 2500])}`,
    `code${bin(sig.codeLines / Math.max(sig.lines, 1), [0.001, 0.05, 0.15, 0.3])}`,
    `prices${bin(sig.prices, [1, 3, 8])}`,
    `period${bin(sig.perPeriod, [1, 2])}`,
    `cta${bin(sig.ctas, [1, 3])}`,
    `form${bin(sig.formFields, [1, 3])}`,
    `qhead${bin(sig.questionHeads, [1, 3])}`,
    `ordered${bin(sig.orderedItems, [1, 4, 10])}`,
    `table${bin(sig.tableRows, [1, 8])}`,
    `apisig${bin(sig.apiSigs, [1, 4, 10])}`,
    `links${bin(sig.linkWords / total, [0.1, 0.3, 0.5])}`,
    `heads${bin(sig.headings.length, [1, 4, 11])}`,
    `dev${bin(sig.devHits / total, [0.005, 0.02, 0.05])}`,
    `tech${bin(sig.techHits / total, [0.005, 0.015, 0.04])}`,
    `biz${bin(sig.bizHits / total, [0.003, 0.008, 0.02])}`,
    `dated${hasDate ? 1 : 0}`,
    `you${bin(share(YOU), [0.003, 0.01, 0.025])}`,
    `first${bin(share(FIRST_PERSON), [0.003, 0.01, 0.025])}`,
    ...[...sig.jsonld].sort().map((j) => `ld_${j}`),
  ];
  if (doc.ogType) f.push(`og_${doc.ogType.toLowerCase()}`);
  const d = words(doc.description).slice(0, MAX_DESCRIPTION_TOKENS);
  return { t, d, h, b, f };
}
