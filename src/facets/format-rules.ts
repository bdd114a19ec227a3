/**
 * The format rules. Each names itself in the explanation and says whether a specific signal
 * decided (`strong`) or a fallback did (prose → article, short → other, numbered steps,
 * signature counts): only fallbacks may be overridden by a confident learned model.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import { counted } from "../plural.ts";
import { type KindPrediction, kindShare } from "./page-kind-model.ts";
import { isForumThread, isLinkList, isWikiPage } from "./page-kinds.ts";
import type { Signals } from "./signals.ts";
import { uRegex } from "./unicode-regex.ts";
import { urlParts } from "./url-parts.ts";
import type { PageFormat, PageType } from "./vocabulary.ts";

export interface RuleDecision<T> {
  readonly label: T;
  /** A specific signal decided; false for the fallbacks the learned model may override. */
  readonly strong: boolean;
}

const TYPE_FORMAT: Partial<Record<PageType, PageFormat>> = {
  homepage: "landing",
  product: "landing",
  pricing: "landing",
  landing: "landing",
  integration: "landing",
  event: "landing",
  careers: "landing",
  listing: "listing",
  contact: "form",
  api_reference: "reference",
};
const DOCS_LIKE: ReadonlySet<PageType> = new Set(["docs", "api_reference", "support", "blog"]);

const MEDIA = uRegex(
  String.raw`\b(video|podcast|episode|watch|listen|gallery|slides|webcast)\b`,
  "i",
);
const TUTORIAL = uRegex(
  String.raw`\b(how to|tutorial|getting started|quick ?start|step \d|step-by-step|walkthrough|installing|installation guide|first steps)\b`,
  "i",
);
const TUTORIAL_PATH = uRegex(
  String.raw`/(tutorials?|howto|how-to|getting-started|get-started|quick-?start|walkthroughs?)(/|\.|$)|/(tutorial|how-to)-`,
);
const FAQ = uRegex(String.raw`\b(faqs?|frequently asked)\b`, "i");
const FAQ_PATH = uRegex(String.raw`/faqs?(/|\.|$)`);
const GLOSSARY = uRegex(String.raw`\b(glossary|glossar|glosario|glossaire)\b`, "i");

export function classifyFormat(
  doc: ExtractedDocument,
  url: string,
  type: PageType,
  sig: Signals,
  why: string[],
): RuleDecision<PageFormat> {
  const decide = (label: PageFormat, strong: boolean, reason: string) => {
    why.push(`${label}: ${reason}`);
    return { label, strong };
  };
  const title = doc.title ?? "";
  const { path } = urlParts(url);
  const words = Math.max(sig.words, 1);
  if (
    sig.jsonld.has("faqpage") ||
    sig.questionHeads >= 3 ||
    FAQ.test(title) ||
    (type === "support" && FAQ_PATH.test(path))
  ) {
    return decide(
      "faq",
      true,
      `FAQ markup/title or ${counted(sig.questionHeads, "question heading")}`,
    );
  }
  if (type === "support" && isForumThread(url, sig)) {
    return decide("faq", true, "forum or Q&A thread");
  }
  if (isWikiPage(url, title) && type !== "docs" && type !== "api_reference") {
    return decide("reference", true, "wiki article");
  }
  if (type === "contact" || (sig.formFields >= 3 && sig.words < 250)) {
    return decide("form", true, "contact page / form fields");
  }
  if (type === "listing" || (sig.linkWords / words > 0.5 && sig.words >= 30)) {
    return decide("listing", true, "link-dominated");
  }
  if (sig.linkShare > 0.5 && sig.words >= 30) {
    return decide("listing", false, "link-dominated opening");
  }
  if (sig.pageLinkShare > 0.6 && sig.words >= 500) {
    return decide("listing", false, "mostly links across the page (a table of contents)");
  }
  if (isLinkList(doc)) return decide("listing", false, "repeated titled links");
  if (sig.words < 250 && MEDIA.test(title)) {
    return decide("media", true, "short page about video/audio");
  }
  const docsLike = DOCS_LIKE.has(type);
  if (docsLike && (sig.jsonld.has("howto") || TUTORIAL.test(title))) {
    return decide("tutorial", true, "how-to markup or title");
  }
  if (docsLike && TUTORIAL_PATH.test(path)) {
    return decide("tutorial", true, "tutorial/how-to path");
  }
  if (GLOSSARY.test(title)) return decide("reference", true, "glossary");
  if (docsLike && sig.orderedItems >= 4 && sig.codeLines >= 3) {
    return decide("tutorial", false, "numbered steps with code");
  }
  if (type === "docs" && (sig.apiSigs >= 6 || sig.tableRows >= 8)) {
    return decide("reference", false, "signatures/tables in docs");
  }
  const usual = TYPE_FORMAT[type];
  if (usual) return decide(usual, true, `usual for ${type}`);
  if (sig.words >= 80) return decide("article", false, "prose");
  return decide("other", false, "too little text");
}

/** How sure the page-kind model must be to decide the format; when the type rules were
 * decisive (a path, markup or title said what the page is), `KIND_FORMAT_P_DECISIVE`. */
export const KIND_FORMAT_P = 0.4;
export const KIND_FORMAT_P_DECISIVE = 0.6;
/** Formats a page-kind vote does not replace: a specific signal said what the page is made of. */
const KEPT_FORMATS: ReadonlySet<PageFormat> = new Set(["faq", "form"]);

/**
 * The format rule's decision checked against the page-kind model (page-kind-model.ts): a page
 * of repeated items (a listing or a category grid) is a `listing` whatever its prose, and a
 * service page the rules took for prose (`article`, the fallback) is a `landing` page.
 */
export function withKindFormat(
  rule: RuleDecision<PageFormat>,
  kind: KindPrediction | null,
  decisive: boolean,
  why: string[],
): RuleDecision<PageFormat> {
  if (!kind || KEPT_FORMATS.has(rule.label)) return rule;
  // When the rules were sure, or the page is too short for a format (the `other` fallback),
  // one kind must reach the higher threshold; else listing and collection count together.
  const sure = decisive || rule.label === "other";
  const min = sure ? KIND_FORMAT_P_DECISIVE : KIND_FORMAT_P;
  const items = sure
    ? Math.max(kindShare(kind, ["listing"]), kindShare(kind, ["collection"]))
    : kindShare(kind, ["listing", "collection"]);
  if (items >= min && rule.label !== "listing") {
    why.push(
      `listing: page kind listing or collection p=${items.toFixed(2)} (rule said ${rule.label})`,
    );
    return { label: "listing", strong: true };
  }
  const service = kindShare(kind, ["service"]);
  if (service >= min && rule.label === "article") {
    why.push(`landing: page kind service p=${service.toFixed(2)} (rule said ${rule.label})`);
    return { label: "landing", strong: true };
  }
  return rule;
}
