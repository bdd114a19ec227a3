/**
 * The transparent type scorer: every signal adds a weight to a type label and names itself in
 * the explanation; the label with the most evidence wins when it reaches `MIN_SCORE`, else
 * `other`. The learned model's vote joins in `decideType` as one more weighted signal unless
 * the rules are decisive.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import { counted } from "../plural.ts";
import { type KindPrediction, kindShare, type PageKind } from "./page-kind-model.ts";
import { LINK_LIST_MIN, LINK_LIST_SHARE, titledLinks } from "./page-kinds.ts";
import { CASE_STUDY_WORDS, EVENT_WORDS, JOB_WORDS, SHOP_WORDS } from "./rule-words.ts";
import type { Signals } from "./signals.ts";
import { HEAD_CHARS } from "./signals.ts";
import { HOST_RULES, JSONLD_RULES, PATH_RULES, TITLE_RULES } from "./type-patterns.ts";
import { codePointPrefix, countMatches, uRegex } from "./unicode-regex.ts";
import { urlParts } from "./url-parts.ts";
import type { PageType } from "./vocabulary.ts";

export const MIN_SCORE = 1.5;
/** The learned model's vote: counted from this probability, weighing `MODEL_WEIGHT * p`. */
export const MODEL_MIN_P = 0.5;
export const MODEL_WEIGHT = 2.5;
/** Rules are decisive with a best score this high and this far ahead of the second. */
export const STRONG_SCORE = 3.0;
export const STRONG_MARGIN = 1.0;

/** JSON-LD types of a page that sells: an offering, not an article about one. */
const SELLING_LD = ["product", "offer", "aggregateoffer", "service", "softwareapplication"];

/**
 * What makes a page a page that sells, whatever date it carries: offering markup
 * (schema.org Product, Offer, Service, SoftwareApplication), billing periods (a pricing
 * table), or prices beside calls to action. Empty for an article.
 */
export function sellingSignals(sig: Signals): string[] {
  const out: string[] = [];
  const ld = SELLING_LD.filter((t) => sig.jsonld.has(t));
  if (ld.length) out.push(`JSON-LD ${ld.join("/")}`);
  if (sig.perPeriod >= 2) out.push(`${sig.perPeriod} billing periods`);
  if (sig.prices >= 1 && sig.ctas >= 3)
    out.push(`${counted(sig.prices, "price")}, ${sig.ctas} calls to action`);
  return out;
}

export interface TypeEvidence {
  /** Label → summed weight, in the order the labels first got evidence. */
  readonly scores: Map<PageType, number>;
  /** An API-reference URL path: a docs winner is then reported as `api_reference`. */
  readonly referencePath: boolean;
}

/** A version number in a heading; a leading section number ("6.2.1. ", "E.1. ") is skipped
 * first, atomically (lookahead + backreference), so the version is never found inside it. */
const VERSION_HEAD = uRegex(
  String.raw`^#{1,4} (?=((?:(?:[a-z]\.)?(?:\d+\.)+\s+)?))\1.*\b(v?\d+\.\d+(\.\d+)?|version \d)`,
  "gim",
);
/** Press-release and news-wire formulas. */
const PRESS = uRegex(
  String.raw`(\((ap|reuters|afp)\)\s?[—–-]|\bannounced today\b|\btoday announced\b|\bpress release\b|\bfor immediate release\b|\bmedia contact\b)`,
  "i",
);
const ROOT_SEGMENT = /^[a-z]{2}([-_][a-z]{2})?$/i;
const INDEX_FILES = new Set(["index.html", "index.htm", "index.php"]);

/** The site root, or a language root such as `/de/` or `/en-us/`. */
export function pathIsRoot(path: string): boolean {
  const segs = path.split("/").filter((s) => s && !INDEX_FILES.has(s));
  return segs.length === 0 || (segs.length === 1 && ROOT_SEGMENT.test(segs[0] as string));
}

/** Rule evidence per type label; each signal names itself in `why`. */
export function typeScores(
  doc: ExtractedDocument,
  url: string,
  sig: Signals,
  hasDate: boolean,
  why: string[],
): TypeEvidence {
  const scores = new Map<PageType, number>();
  let referencePath = false;
  const add = (label: PageType, w: number, reason: string): void => {
    scores.set(label, (scores.get(label) ?? 0) + w);
    why.push(`${label} +${w}: ${reason}`);
  };
  const { path, host, query } = urlParts(url);
  if (pathIsRoot(path) && !query) add("homepage", 4, "root path");
  for (const r of PATH_RULES) {
    if (r.re.test(path)) {
      add(r.label, r.weight, `path matches ${r.source.slice(0, 40)}`);
      if (r.label === "api_reference") referencePath = true;
    }
  }
  for (const r of HOST_RULES) if (r.re.test(host)) add(r.label, r.weight, `host ${host}`);
  for (const t of sig.jsonld) {
    for (const [label, w] of JSONLD_RULES.get(t) ?? []) add(label, w, `JSON-LD ${t}`);
  }
  const og = (doc.ogType ?? "").toLowerCase();
  if (og === "product" || og.startsWith("product.")) add("product", 2, `og:type ${og}`);
  const title = [doc.title ?? "", ...sig.headings.slice(0, 1)].join(" ");
  for (const r of TITLE_RULES) {
    if (r.re.test(title)) add(r.label, r.weight, `title matches ${r.source.slice(0, 40)}`);
  }
  if (sig.prices >= 3 && sig.perPeriod >= 2) {
    add("pricing", 2, `${sig.prices} prices, ${sig.perPeriod} billing periods`);
  }
  const hb = sig.headBag;
  if (hb.count(JOB_WORDS) >= 3) add("job", 2, "job-posting sections");
  if (hb.count(CASE_STUDY_WORDS) >= 2)
    add("case_study", 1.5, "challenge/solution/results sections");
  if (countMatches(VERSION_HEAD, doc.markdown.slice(0, 20000)) >= 3) {
    add("changelog", 1.5, "version headings");
  }
  if (sig.formFields >= 3) add("contact", 1, "form field labels");
  const shop = hb.count(SHOP_WORDS);
  if (shop >= 2 && sig.prices >= 1 && sig.perPeriod === 0) {
    if (sig.prices >= 6)
      add("listing", 2, `${sig.prices} prices and ${shop} shop words: a product list`);
    else add("product", 2, `${counted(sig.prices, "price")} and ${shop} shop words`);
  }
  if (hb.count(EVENT_WORDS) >= 2) add("event", 1, "agenda/speakers/register");
  if (PRESS.test(codePointPrefix(doc.text, HEAD_CHARS))) add("news", 1.5, "press/wire formula");
  if (sig.apiSigs >= 4) {
    add("api_reference", 1 + Math.min(sig.apiSigs, 20) / 10, `${sig.apiSigs} API signatures`);
  }
  if (sig.linkShare > 0.5 && sig.words >= 30) add("listing", 2, "mostly link text");
  const titled = titledLinks(doc);
  if (titled.count >= LINK_LIST_MIN && titled.share >= LINK_LIST_SHARE) {
    add(
      "listing",
      2.5,
      `${titled.count} titled links, ${Math.round(titled.share * 100)}% of the words`,
    );
  }
  // A dated prose article with no other strong hint: editorial content.
  const articleLike =
    og === "article" || ["article", "newsarticle", "blogposting"].some((t) => sig.jsonld.has(t));
  if (hasDate && sig.words >= 150 && (articleLike || scores.size === 0)) {
    const sells = sellingSignals(sig);
    if (sells.length) why.push(`dated, but not an article: ${sells.join(", ")}`);
    else {
      add("news", 1.6, "dated article");
      add("blog", 1.4, "dated article");
    }
  }
  if (sig.words >= 300 && sig.codeLines + sig.techHits + sig.devHits >= 15 && !hasDate) {
    add("docs", 1, "long undated technical text");
  }
  return { scores, referencePath };
}

/** Rules are decisive with a best score of `STRONG_SCORE` at least `STRONG_MARGIN` ahead. */
export function rulesDecisive(evidence: TypeEvidence): boolean {
  const ranked = [...evidence.scores.values()].sort((a, b) => b - a);
  const first = ranked[0] ?? 0;
  return first >= STRONG_SCORE && first - (ranked[1] ?? 0) >= STRONG_MARGIN;
}

export interface TypeVote {
  readonly label: string;
  readonly prob: number;
}

/**
 * The label with the most evidence when it reaches `MIN_SCORE`, else `other`.
 *
 * `vote`: the learned model's label and probability. Unless the rules are decisive (best score at
 * least `STRONG_SCORE` and ahead by `STRONG_MARGIN`: a path, JSON-LD or job-posting markup
 * weighs 2.5 to 5 on its own), a vote at or above `MODEL_MIN_P` adds `MODEL_WEIGHT * p` to its
 * label like any other signal: enough to decide a page the rules say little about, or to break
 * a near tie.
 */
export function decideType(
  evidence: TypeEvidence,
  why: string[],
  vote?: TypeVote,
  kind?: KindPrediction,
): PageType {
  const scores = new Map(evidence.scores);
  const decisive = rulesDecisive(evidence);
  addKindVote(scores, kind, decisive, why);
  if (vote) {
    const { label, prob } = vote;
    if (decisive) {
      why.push(`model: ${label} p=${prob.toFixed(2)} (not used: rules decisive)`);
    } else if (prob >= MODEL_MIN_P && label !== "other") {
      const w = Math.round(MODEL_WEIGHT * prob * 100) / 100;
      const key = label as PageType;
      scores.set(key, (scores.get(key) ?? 0) + w);
      why.push(`${label} +${w}: model p=${prob.toFixed(2)}`);
    } else {
      why.push(`model: ${label} p=${prob.toFixed(2)} (not used, < ${MODEL_MIN_P} or other)`);
    }
  }
  if (scores.size === 0) {
    why.push("no signal");
    return "other";
  }
  let best: [PageType, number] = ["other", Number.NEGATIVE_INFINITY];
  for (const entry of scores) if (entry[1] > best[1]) best = entry;
  if (best[1] < MIN_SCORE) {
    why.push(`best ${best[0]} ${Number(best[1].toPrecision(6))} < ${MIN_SCORE}`);
    return "other";
  }
  // API reference is a kind of docs: a reference path inside documentation decides it.
  if (best[0] === "docs" && evidence.referencePath) {
    why.push("api_reference: reference path inside documentation");
    return "api_reference";
  }
  return best[0];
}

/** The page-kind model's vote (page-kind-model.ts) counts from this probability, weighing
 * `KIND_WEIGHT * p` for the type the kind is (articles are left to the rules: blog or news). */
export const KIND_MIN_P = 0.5;
export const KIND_WEIGHT = 4;
/** The types page kinds are: a listing and a collection are both pages of repeated items, a
 * product and a service page both offerings (articles are left to the rules: blog or news). */
export const KIND_TYPES: readonly (readonly [PageType, readonly PageKind[]])[] = [
  ["listing", ["listing", "collection"]],
  ["product", ["product", "service"]],
  ["docs", ["documentation"]],
  ["support", ["forum"]],
];

/** The page-kind model's vote as type evidence (decideType), named in `why`. */
function addKindVote(
  scores: Map<PageType, number>,
  kind: KindPrediction | undefined,
  decisive: boolean,
  why: string[],
): void {
  if (!kind) return;
  let best: readonly [PageType, number] | null = null;
  for (const [label, kinds] of KIND_TYPES) {
    const p = kindShare(kind, kinds);
    if (!best || p > best[1]) best = [label, p];
  }
  if (!best || kind.kind === "article") return;
  const [label, prob] = best;
  const p = prob.toFixed(2);
  if (decisive) why.push(`page kind ${kind.kind}: ${label} p=${p} (not used: rules decisive)`);
  else if (prob < KIND_MIN_P)
    why.push(`page kind ${kind.kind}: ${label} p=${p} (not used, < ${KIND_MIN_P})`);
  else {
    const w = Math.round(KIND_WEIGHT * prob * 100) / 100;
    scores.set(label, (scores.get(label) ?? 0) + w);
    why.push(`${label} +${w}: page kind ${kind.kind}, ${label} p=${p}`);
  }
}
