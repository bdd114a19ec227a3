/**
 * All facets of one page from its extracted document, with why each was chosen. Pure CPU, no
 * I/O: the crawl workers, `inspect` and the benchmarks call the same function.
 *
 * Type, format and audience come from transparent rules plus a small learned model
 * (facet-model.ts): the model's type vote is one more weighted signal unless the rules are
 * decisive, and it replaces a weak format or audience rule when it is confident.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import { classifyAudience } from "./audience-rules.ts";
import { hasCode } from "./code.ts";
import { describePrediction, type FacetModel } from "./facet-model.ts";
import { classifyFormat, withKindFormat } from "./format-rules.ts";
import { defaultLanguageDetector } from "./language-detector.ts";
import type { LanguageDetector } from "./language-id.ts";
import { pageLocale } from "./locale.ts";
import { pageFeatures } from "./model-features.ts";
import { boilerplateShare, originality } from "./originality.ts";
import { packagedKindModel, packagedModel } from "./packaged-model.ts";
import { type KindPrediction, kindFeatures, type PageKindModel } from "./page-kind-model.ts";
import { depth, promotional, technicality, tokenStats } from "./scores.ts";
import { computeSignals, MAX_TEXT } from "./signals.ts";
import { simhash64 } from "./simhash.ts";
import { pageTopics } from "./topics.ts";
import { decideType, rulesDecisive, typeScores } from "./type-rules.ts";
import { codePointPrefix } from "./unicode-regex.ts";
import type { Audience, PageFormat, PageType, Topic } from "./vocabulary.ts";

/** The facets as the API shows them (CONTRACT.md "Facets"). */
export interface PageFacets {
  readonly type: PageType;
  readonly format: PageFormat;
  readonly audience: Audience;
  readonly locale: string;
  readonly topics: readonly Topic[];
  readonly technicality: number;
  readonly depth: number;
  readonly originality: number;
  readonly promotional: number;
  readonly has_code: boolean;
  readonly words: number;
  /** `YYYY-MM-DD` or null. */
  readonly published: string | null;
}

export type ExplainedFacet = Exclude<keyof PageFacets, "words">;
export const EXPLAINED_FACETS: readonly ExplainedFacet[] = [
  "type",
  "format",
  "audience",
  "locale",
  "topics",
  "technicality",
  "depth",
  "originality",
  "promotional",
  "has_code",
  "published",
];
/** Why each facet got its value: the signals, in the order they were weighed. */
export type FacetExplanation = Readonly<Record<ExplainedFacet, readonly string[]>>;

export interface ScoredPage {
  readonly facets: PageFacets;
  readonly explain: FacetExplanation;
  /** 64-bit SimHash of the main text (simhash.ts): what the store keeps per page. */
  readonly simhash: bigint;
  /** Template-link words against main-content words (originality.ts). */
  readonly boilerplate: number;
}

export interface ScoreOptions {
  /** The response's Content-Language header, if any. */
  readonly contentLanguage?: string | null;
  /** The page's `<lastmod>` in a sitemap (`YYYY-MM-DD`): the date when the page states none. */
  readonly sitemapLastmod?: string | null;
  /** Highest SimHash similarity to another page of the domain (simhash.ts); 0 when none. */
  readonly maxSimilarity?: number;
  /** The learned model; null scores by the rules alone. Default: the packaged model. */
  readonly model?: FacetModel | null;
  /** The page-kind model (page-kind-model.ts); null: none. Default: the packaged one. */
  readonly kindModel?: PageKindModel | null;
  readonly languageDetector?: LanguageDetector;
  /** How sure the model must be to replace a weak format / audience rule (training sweeps it). */
  readonly overrideP?: OverrideP;
}

export interface OverrideP {
  readonly format: number;
  readonly audience: number;
}

interface Decided {
  readonly type: PageType;
  readonly format: PageFormat;
  readonly audience: Audience;
}

/** A PDF's format: what it is laid out as says more than rules written for HTML pages. */
const PDF_FORMAT = { label: "document", strong: true } as const;

/** Format and audience: the rule, unless it was weak and the model confidently says otherwise. */
export const MODEL_OVERRIDE_P: OverrideP = { format: 0.7, audience: 0.6 };
/** Fewer words than this: too little text for a format (format-rules.ts says `other`). */
const SHORT_PAGE_WORDS = 80;
/** The facet model agreeing with the format rule this surely makes the rule hard to move. */
const SURE_P = 0.9;

function typeFormatAudience(
  doc: ExtractedDocument,
  url: string,
  sig: ReturnType<typeof computeSignals>,
  model: FacetModel | null,
  kindModel: PageKindModel | null,
  why: Record<ExplainedFacet, string[]>,
  overrideP: OverrideP,
): Decided {
  const hasDate = doc.published !== null;
  const predicted = kindModel ? kindModel.predict(kindFeatures(doc, url, sig, hasDate)) : null;
  // On a page too short for a format the model has little to go on: only the predicted kind's
  // own probability counts, not its sum with a kin (listing + collection, product + service).
  const kind: KindPrediction | null =
    predicted && sig.words < SHORT_PAGE_WORDS
      ? { kind: predicted.kind, prob: predicted.prob }
      : predicted;
  if (kind) why.type.push(`kind: ${kind.kind} p=${kind.prob.toFixed(2)}`);
  const z = model ? model.logits(pageFeatures(doc, sig, hasDate)) : null;
  const vote = model && z ? model.predict("type", z) : undefined;
  const evidence = typeScores(doc, url, sig, hasDate, why.type);
  const type = decideType(evidence, why.type, vote, kind ?? undefined);
  let format: ReturnType<typeof classifyFormat>;
  if (doc.pdf) {
    format = PDF_FORMAT;
    why.format.push("a PDF document");
  } else {
    const ruleFormat = classifyFormat(doc, url, type, sig, why.format);
    // The kind model decides the format more readily when neither the type rules nor the facet
    // model were sure of what the page is.
    const formatPred = model && z ? model.predict("format", z, type) : null;
    const sure =
      rulesDecisive(evidence) ||
      (formatPred !== null && formatPred.label === ruleFormat.label && formatPred.prob >= SURE_P);
    format = withKindFormat(ruleFormat, kind, sure, why.format);
  }
  const audience = classifyAudience(doc, url, type, sig, why.audience);
  if (!model || !z) return { type, format: format.label, audience: audience.label };
  const settle = <T extends string>(
    head: "format" | "audience",
    rule: { label: T; strong: boolean },
  ): T => {
    const pred = model.predict(head, z, type);
    const reasons = why[head];
    if (pred.label === rule.label) reasons.push(`${describePrediction(pred)} (agrees)`);
    else if (rule.strong || pred.prob < overrideP[head]) {
      const because = rule.strong ? "strong rule" : "unsure";
      reasons.push(`${describePrediction(pred)} (not used: ${because})`);
    } else {
      reasons.push(
        `${pred.label}: model p=${pred.prob.toFixed(2)} overrides weak rule ${rule.label}`,
      );
      return pred.label as T;
    }
    return rule.label;
  };
  return { type, format: settle("format", format), audience: settle("audience", audience) };
}

export function scorePage(
  doc: ExtractedDocument,
  url: string,
  options: ScoreOptions = {},
): ScoredPage {
  const why = Object.fromEntries(EXPLAINED_FACETS.map((f) => [f, []])) as unknown as Record<
    ExplainedFacet,
    string[]
  >;
  const text = codePointPrefix(doc.text, MAX_TEXT);
  const sig = computeSignals(doc, text, codePointPrefix(doc.markdown, MAX_TEXT));
  const model = options.model === undefined ? packagedModel() : options.model;

  let published = doc.published;
  if (published !== null) why.published.push("extracted (JSON-LD / meta / page text)");
  else if (options.sitemapLastmod) {
    published = options.sitemapLastmod;
    why.published.push("sitemap lastmod");
  } else why.published.push("no date stated");

  const { type, format, audience } = typeFormatAudience(
    doc,
    url,
    sig,
    model,
    options.kindModel === undefined ? packagedKindModel() : options.kindModel,
    why,
    options.overrideP ?? MODEL_OVERRIDE_P,
  );
  const locale = pageLocale(
    {
      declared: doc.language,
      text,
      url,
      contentLanguage: options.contentLanguage ?? null,
      hreflang: doc.hreflang,
    },
    options.languageDetector ?? defaultLanguageDetector(),
    why.locale,
  );
  const code = hasCode(doc.markdown);
  why.has_code.push(code.reason);
  const stats = tokenStats(text);
  const facets: PageFacets = {
    type,
    format,
    audience,
    locale,
    topics: pageTopics(doc, sig.bag, why.topics),
    technicality: technicality(sig, stats.identifiers, why.technicality),
    depth: depth(sig, stats, why.depth),
    originality: originality(doc, sig.words, options.maxSimilarity ?? 0, why.originality),
    promotional: promotional(type, sig, text, why.promotional),
    has_code: code.hasCode,
    words: sig.words,
    published,
  };
  return {
    facets,
    explain: why,
    simhash: simhash64(doc.text),
    boilerplate: boilerplateShare(doc, sig.words),
  };
}
