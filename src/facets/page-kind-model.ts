/**
 * The page-kind classifier: what a page is in WCXB's seven kinds (article, documentation, forum,
 * listing, collection, product, service). A multinomial logistic regression over sparse binary
 * features that, unlike the facet model (model-features.ts), include the URL path's words and
 * the shape of the page's links: the kinds are told apart by layout as much as by words, and it
 * is trained on pages of some 1,300 sites, so a site's URL layout is not what it learns.
 *
 * It does not add a facet: its vote is evidence for `type` and decides a weak `format` (see
 * score-page.ts). Weights ship as `model/page-kind.bin` (kind-model-file.ts); trained by
 * `bun test/eval/facets/wcxb.ts --train` on WCXB's development split.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import { bin } from "./model-features.ts";
import { MAX_TEXT, type Signals } from "./signals.ts";
import { codePointPrefix } from "./unicode-regex.ts";
import { urlParts } from "./url-parts.ts";

export const PAGE_KINDS = [
  "article",
  "documentation",
  "forum",
  "listing",
  "collection",
  "product",
  "service",
] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

export type KindGroup = "u" | "t" | "h" | "b" | "f";
export const KIND_GROUPS: readonly KindGroup[] = ["u", "t", "h", "b", "f"];
export type KindFeatures = Readonly<Record<KindGroup, readonly string[]>>;

const TOKEN = /[\p{L}][\p{L}\p{N}_'’-]*/gu;
const URL_WORD = /[\p{L}]{2,}/gu;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/gmu;
const MD_LINK_LINE = /^\s*(?:[-*+]|\d+[.)])?\s*\[[^\]]+\]\([^)]*\)\s*$/gmu;
const MD_IMAGE = /!\[[^\]]*\]\([^)]*\)/gu;
const MAX_BODY = 600;
/** What the features read of a page (bounded cost; training read the same). */
const MAX_MARKDOWN = 20000;
const MAX_LINKS = 2000;
/** A written date: `2024-05-01`, `05/01/2024`, `May 1, 2024`, `1 May 2024`. */
const DATE_LIKE =
  /\b(?:(?:19|20)\d\d-\d\d-\d\d|\d\d?\/\d\d?\/(?:19|20)\d\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d\d?,? (?:19|20)\d\d|\d\d? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (?:19|20)\d\d)\b/giu;

function words(s: string | null | undefined): string[] {
  return s ? (s.toLowerCase().match(TOKEN) ?? []) : [];
}

function count(re: RegExp, s: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(s)) n++;
  return n;
}

/** The shape of the page's body links: how many, how many distinct paths, sharing a parent. */
export function linkShape(
  doc: ExtractedDocument,
  url: string,
): {
  body: number;
  template: number;
  sameParent: number;
  deeper: number;
  titled: number;
  titledWords: number;
} {
  let body = 0;
  let template = 0;
  const parents = new Map<string, number>();
  let deeper = 0;
  let base: URL | null = null;
  try {
    base = new URL(url);
  } catch {
    base = null;
  }
  const seen = new Set<string>();
  let titled = 0;
  let titledWords = 0;
  for (const l of doc.links.slice(0, MAX_LINKS)) {
    if (l.position === "template") {
      template++;
      continue;
    }
    if (seen.has(l.url)) continue;
    seen.add(l.url);
    body++;
    const n = l.anchorText.split(/\s+/).filter(Boolean).length;
    if (n >= 4) {
      titled++;
      titledWords += n;
    }
    try {
      const u = new URL(l.url);
      if (base && u.host !== base.host) continue;
      const segs = u.pathname.split("/").filter(Boolean);
      const parent = segs.slice(0, -1).join("/");
      parents.set(parent, (parents.get(parent) ?? 0) + 1);
      if (base && u.pathname.startsWith(base.pathname) && u.pathname !== base.pathname) deeper++;
    } catch {
      // not a URL: skipped
    }
  }
  const sameParent = Math.max(0, ...parents.values());
  return { body, template, sameParent, deeper, titled, titledWords };
}

/** Feature tokens of a page for the kind classifier. */
export function kindFeatures(
  doc: ExtractedDocument,
  url: string,
  sig: Signals,
  hasDate: boolean,
): KindFeatures {
  const { path, query } = urlParts(url);
  const segs = path.split("/").filter(Boolean);
  const u = [...new Set(path.toLowerCase().match(URL_WORD) ?? [])].map((w) => `w_${w}`);
  u.push(`depth${Math.min(segs.length, 5)}`);
  if (query) u.push("query");
  if (/\d{3,}/.test(path)) u.push("numid");
  if (/\/(19|20)\d\d\/\d\d?\//.test(path)) u.push("datepath");
  if (/\.html?$/.test(path)) u.push("html");
  const last = segs.at(-1) ?? "";
  u.push(`lastlen${bin(last.length, [1, 12, 30, 60])}`);
  u.push(`hyphens${bin((last.match(/-/g) ?? []).length, [1, 3, 6])}`);

  const title = words(doc.title);
  const t = [...title];
  for (let i = 1; i < title.length; i++) t.push(`${title[i - 1]}_${title[i]}`);
  const h = sig.headings.slice(0, 30).flatMap((x) => words(x));
  const b = [...sig.bag.counts.keys()].slice(0, MAX_BODY);

  const md = doc.markdown.slice(0, MAX_MARKDOWN);
  const total = Math.max(sig.words, 1);
  const shape = linkShape(doc, url);
  const items = count(LIST_ITEM, md);
  const linkLines = count(MD_LINK_LINE, md);
  const images = count(MD_IMAGE, md);
  const headLevels = new Map<string, number>();
  for (const m of md.matchAll(/^(#{1,6}) /gmu)) {
    const k = m[1] ?? "";
    headLevels.set(k, (headLevels.get(k) ?? 0) + 1);
  }
  const sameLevel = Math.max(0, ...headLevels.values());
  const avgHeadingWords = sig.headings.length
    ? sig.headings.reduce((s, x) => s + x.split(/\s+/).length, 0) / sig.headings.length
    : 0;
  const f = [
    `words${bin(sig.words, [30, 80, 150, 300, 600, 1200, 2500])}`,
    `links${bin(sig.linkWords / total, [0.05, 0.15, 0.3, 0.5, 0.7])}`,
    `blinks${bin(shape.body, [3, 10, 25, 60, 150])}`,
    `blinkrate${bin(shape.body / total, [0.01, 0.03, 0.08, 0.2])}`,
    `tlinks${bin(shape.template, [20, 60, 150, 300])}`,
    `parent${bin(shape.sameParent, [3, 8, 20, 50])}`,
    `deeper${bin(shape.deeper, [2, 6, 20])}`,
    `titled${bin(shape.titled, [2, 5, 12, 30])}`,
    `titledshare${bin(shape.titledWords / total, [0.05, 0.15, 0.3, 0.5])}`,
    `dates${bin(count(DATE_LIKE, codePointPrefix(doc.text, MAX_TEXT)), [1, 3, 8])}`,
    `items${bin(items, [3, 10, 30, 80])}`,
    `linklines${bin(linkLines, [2, 6, 15, 40])}`,
    `images${bin(images, [1, 4, 12, 30])}`,
    `heads${bin(sig.headings.length, [1, 4, 11, 25])}`,
    `samelevel${bin(sameLevel, [3, 8, 20])}`,
    `headwords${bin(avgHeadingWords, [2, 4, 7, 11])}`,
    `code${bin(sig.codeLines / Math.max(sig.lines, 1), [0.001, 0.05, 0.15])}`,
    `prices${bin(sig.prices, [1, 3, 8, 20])}`,
    `period${bin(sig.perPeriod, [1, 2])}`,
    `cta${bin(sig.ctas, [1, 3, 6])}`,
    `form${bin(sig.formFields, [1, 3])}`,
    `qhead${bin(sig.questionHeads, [1, 3])}`,
    `ordered${bin(sig.orderedItems, [1, 4, 10])}`,
    `table${bin(sig.tableRows, [1, 8])}`,
    `apisig${bin(sig.apiSigs, [1, 4, 10])}`,
    `dated${hasDate ? 1 : 0}`,
    ...[...sig.jsonld].sort().map((j) => `ld_${j}`),
  ];
  if (doc.ogType) f.push(`og_${doc.ogType.toLowerCase()}`);
  return { u, t, h, b, f };
}

export interface KindPrediction {
  readonly kind: PageKind;
  readonly prob: number;
  /** Every kind's probability (absent kinds: 0). */
  readonly probs?: Readonly<Partial<Record<PageKind, number>>>;
}

/** The probability that the page is one of `kinds` (the predicted kind's alone without `probs`). */
export function kindShare(pred: KindPrediction, kinds: readonly PageKind[]): number {
  if (!pred.probs) return kinds.includes(pred.kind) ? pred.prob : 0;
  return kinds.reduce((s, k) => s + (pred.probs?.[k] ?? 0), 0);
}

/** A linear model: group → token → row; `rows x classes` weights, row-major. */
export class PageKindModel {
  readonly vocab: ReadonlyMap<KindGroup, ReadonlyMap<string, number>>;
  readonly classes: readonly PageKind[];
  readonly bias: Float32Array;
  readonly #weights: Float32Array;

  constructor(
    vocab: ReadonlyMap<KindGroup, ReadonlyMap<string, number>>,
    classes: readonly PageKind[],
    bias: Float32Array,
    weights: Float32Array,
  ) {
    let rows = 0;
    for (const g of vocab.values()) for (const r of g.values()) rows = Math.max(rows, r + 1);
    if (weights.length !== rows * classes.length || bias.length !== classes.length) {
      throw new Error(`page-kind model: ${weights.length} weights for ${rows} x ${classes.length}`);
    }
    this.vocab = vocab;
    this.classes = classes;
    this.bias = bias;
    this.#weights = weights;
  }

  /** The weight of `row` for class `j`. */
  weight(row: number, j: number): number {
    return this.#weights[row * this.classes.length + j] ?? 0;
  }

  /** Probabilities of the classes, in `classes` order. */
  probabilities(feats: KindFeatures): Float64Array {
    const k = this.classes.length;
    const z = Float64Array.from(this.bias);
    for (const g of KIND_GROUPS) {
      const vg = this.vocab.get(g);
      if (!vg) continue;
      const rows = new Set<number>();
      for (const t of feats[g]) {
        const r = vg.get(t);
        if (r !== undefined) rows.add(r);
      }
      if (!rows.size) continue;
      const v = 1 / Math.sqrt(rows.size);
      for (const r of rows) {
        for (let j = 0; j < k; j++) z[j] = (z[j] as number) + v * (this.#weights[r * k + j] ?? 0);
      }
    }
    let max = Number.NEGATIVE_INFINITY;
    for (const x of z) max = Math.max(max, x);
    let sum = 0;
    for (let j = 0; j < k; j++) {
      z[j] = Math.exp((z[j] as number) - max);
      sum += z[j] as number;
    }
    for (let j = 0; j < k; j++) z[j] = (z[j] as number) / sum;
    return z;
  }

  predict(feats: KindFeatures): KindPrediction {
    const p = this.probabilities(feats);
    let best = 0;
    for (let j = 1; j < p.length; j++) if ((p[j] as number) > (p[best] as number)) best = j;
    const probs: Partial<Record<PageKind, number>> = {};
    this.classes.forEach((c, j) => {
      probs[c] = p[j] as number;
    });
    return { kind: this.classes[best] as PageKind, prob: p[best] as number, probs };
  }
}
