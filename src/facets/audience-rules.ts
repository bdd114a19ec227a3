/**
 * The audience rules: job seekers, investors, partners and press come from specific markup,
 * paths or phrases (strong); developers, technical, business and consumers from vocabulary rates
 * and the page type (weak: a confident learned model may override them).
 */
import type { ExtractedDocument } from "../extract/document.ts";
import type { RuleDecision } from "./format-rules.ts";
import {
  BUSINESS_NEWS_WORDS,
  CONSUMER_WORDS,
  INVESTOR_WORDS,
  PARTNER_WORDS,
  SHOP_WORDS,
} from "./rule-words.ts";
import { HEAD_CHARS, type Signals } from "./signals.ts";
import type { Vocab } from "./text-stats.ts";
import { codePointPrefix, uRegex } from "./unicode-regex.ts";
import { urlParts } from "./url-parts.ts";
import type { Audience, PageType } from "./vocabulary.ts";

const INVESTOR_PATH = /\/(investors?|ir)(\/|$)/u;
const PARTNER_PATH = /\/partners?(\/|$)/u;
const PRESS_PATH = /\/(press|newsroom)/u;
const CAREER_PATH = /\/(karriere|careers?|jobs)(\/|$)/u;
/** Press-release formulas (a wire story's dateline is news for everyone, not for the press). */
const PRESS_RELEASE = uRegex(
  String.raw`(\bannounced today\b|\btoday announced\b|\bpress release\b|\bfor immediate release\b|\bmedia contact\b)`,
  "i",
);
const TECHNICAL_TYPES: ReadonlySet<PageType> = new Set([
  "docs",
  "api_reference",
  "changelog",
  "support",
  "blog",
  "integration",
]);
const BUSINESS_TYPES: ReadonlySet<PageType> = new Set([
  "pricing",
  "product",
  "landing",
  "case_study",
  "integration",
  "homepage",
  "event",
  "blog",
]);
/** An administrator's page: operations words at least this rate, and this many times the
 * developer words (train.ts --cv 5, audience on all 257 tune pages: 0.808 at 0.03 / 3 and
 * 0.05 / 5, 0.810 at 0.02 / 2). */
const ADMIN_OPS_RATE = 0.03;
const ADMIN_RATIO = 3;
/** An article is for business or consumers when that list's words are this share of its words
 * (train.ts --cv 5, audience on all 257 tune pages, the business share / the consumer share:
 * 0.824 at 0.01 / 0.01; business 0.005: 0.831, 0.003: 0.825, 0.015: 0.817; consumer alone
 * 0.005: 0.815, 0.015: 0.814, 0.025: 0.810; neither: 0.808). */
const ARTICLE_WORDS_SHARE = 0.01;
const OFFERING_TYPES: ReadonlySet<PageType> = new Set(["pricing", "product", "landing"]);

/** Developer evidence (developer words, API signatures, code lines) and technical words per word.
 * Code on a page whose words are an administrator's (servers, packages, the shell; database
 * words excepted, which SQL reference shares) far more than a programmer's is commands to run,
 * not code to write: it does not count for developers. */
export function audienceRates(sig: Signals): { devRate: number; techRate: number } {
  const words = Math.max(sig.words, 1);
  const techRate = sig.techHits / words;
  const adminPage =
    sig.opsHits / words >= ADMIN_OPS_RATE && sig.opsHits >= ADMIN_RATIO * sig.devHits;
  const code = adminPage ? 0 : sig.codeLines;
  return { devRate: (sig.devHits + sig.apiSigs * 2 + code) / words, techRate };
}

export function classifyAudience(
  doc: ExtractedDocument,
  url: string,
  type: PageType,
  sig: Signals,
  why: string[],
): RuleDecision<Audience> {
  const decide = (label: Audience, strong: boolean, reason: string) => {
    why.push(`${label}: ${reason}`);
    return { label, strong };
  };
  const { path } = urlParts(url);
  const words = Math.max(sig.words, 1);
  if (type === "job" || type === "careers") return decide("job_seekers", true, type);
  if (CAREER_PATH.test(path)) return decide("job_seekers", true, "careers section");
  if (INVESTOR_PATH.test(path) || sig.headBag.count(INVESTOR_WORDS) >= 3) {
    return decide("investors", true, "investor path/words");
  }
  if (PARTNER_PATH.test(path) || sig.headBag.count(PARTNER_WORDS) >= 2) {
    return decide("partners", true, "partner program");
  }
  if (
    type === "news" &&
    (PRESS_RELEASE.test(codePointPrefix(doc.text, HEAD_CHARS)) || PRESS_PATH.test(path))
  ) {
    return decide("press", true, "press release");
  }
  if (type === "listing" && PRESS_PATH.test(path)) {
    return decide("press", true, "a list of press releases");
  }
  const { devRate, techRate } = audienceRates(sig);
  if (TECHNICAL_TYPES.has(type) || sig.codeLines >= 5) {
    if (devRate >= 0.02 || sig.apiSigs >= 4) {
      return decide("developers", false, `dev rate ${devRate.toFixed(3)}`);
    }
    if (techRate + devRate >= 0.015) {
      return decide("technical", false, `tech rate ${techRate.toFixed(3)}`);
    }
  }
  if (type === "docs" || type === "api_reference" || type === "changelog") {
    return decide("technical", false, "documentation");
  }
  const shop = sig.headBag.count(SHOP_WORDS);
  if (
    (OFFERING_TYPES.has(type) || type === "listing") &&
    shop >= 2 &&
    sig.bizHits / words < 0.008
  ) {
    return decide("consumers", false, `shop page (${shop} cart/shipping words)`);
  }
  if (BUSINESS_TYPES.has(type)) {
    const bizRate = sig.bizHits / words;
    if (bizRate >= 0.008) return decide("business", false, `b2b rate ${bizRate.toFixed(3)}`);
    if (OFFERING_TYPES.has(type)) {
      return decide("consumers", false, "offering without b2b vocabulary");
    }
  }
  if (type === "news" || type === "blog") {
    const share = (list: Vocab) => (sig.bag.n ? sig.bag.count(list) / sig.bag.n : 0);
    const business = share(BUSINESS_NEWS_WORDS);
    if (business >= ARTICLE_WORDS_SHARE) {
      return decide("business", false, `business news words ${business.toFixed(3)}`);
    }
    const consumer = share(CONSUMER_WORDS);
    if (consumer >= ARTICLE_WORDS_SHARE) {
      return decide("consumers", false, `consumer words ${consumer.toFixed(3)}`);
    }
  }
  return decide("general", false, "no audience signal");
}
