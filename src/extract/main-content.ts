/**
 * Main-content selection for pages that are not documentation, then boilerplate pruning.
 * Strategies, measured by test/bench/extraction-f1.ts (news articles) and
 * test/eval/extraction/company-pages.ts (company pages by type):
 * - `readability`: Mozilla Readability's article, as it is;
 * - `readability-clean`: Readability's article with our boilerplate pruning;
 * - `own`: our semantic container, else our densest-prose container, pruned;
 * - `semantic-readability`: our semantic container when the page has one, else Readability's;
 * - `page`: the page without its chrome (service pages, listings, grids, forum threads);
 * - `hybrid` (default): Readability's article when the page is one (it says so in its metadata
 *   and Readability found prose, or Readability's article holds half the page's text in three
 *   long paragraphs or more, or beside one product), else the page without its chrome.
 */
import { type BoilerplateRules, dropBoilerplate, PAGE_RULES } from "./boilerplate.ts";
import {
  type DomDocument,
  type DomElement,
  elementsByTag,
  nonSpaceLength,
  textOf,
  treeSize,
} from "./dom.ts";
import { dropRepeatedLabels } from "./labels.ts";
import { densestContainer, semanticContainer } from "./own-content.ts";
import { contentLength, pageContent } from "./page-content.ts";
import { dropPriceLines } from "./prices.ts";
import { dropConsentBanners, dropNeverContent, dropWidgets } from "./prune.ts";
import { readabilityContent } from "./readability-content.ts";
import { dropRepeatedBlocks } from "./repeats.ts";

export const MAIN_CONTENT_STRATEGIES = [
  "readability",
  "readability-clean",
  "own",
  "semantic-readability",
  "page",
  "hybrid",
] as const;
export type MainContentStrategy = (typeof MAIN_CONTENT_STRATEGIES)[number];
export const DEFAULT_STRATEGY: MainContentStrategy = "hybrid";

/** Readability's article is the content when it holds this share of the page's text. */
const ARTICLE_SHARE = 0.5;
/** Without an article hint, Readability's pick is taken only when it has this many long
 * paragraphs: a page of cards, offers or short sections is most of its own text too, and
 * Readability's scoring drops many of them. Beside one product, Readability's short pick is the
 * product's own block (its description, price and options). */
const PROSE_PARAGRAPHS = 3;
/** The article's pruning left less than this share of it: the page is taken instead. */
const PRUNED_AWAY = 0.1;

export interface MainContentInput {
  readonly doc: DomDocument;
  /** A fresh parse of the same page (Readability rewrites `doc`; page mode needs it whole). */
  readonly reparse: () => DomDocument | null;
  /** The page's metadata says it is an article (JSON-LD type, og:type). */
  readonly articleHint: boolean;
  /** The page's metadata says it shows one product (JSON-LD Product, og:type product). */
  readonly productHint?: boolean;
}

function longParagraphs(node: DomElement): number {
  let n = 0;
  for (const p of elementsByTag(node, "p")) if (nonSpaceLength(textOf(p)) >= 80) n++;
  return n;
}

/** Readability is superlinear in the tree's size and depth: past these, the page is taken whole
 * (a 5,000-deep nesting took it 2.2 s, 20,000 paragraphs 3 s). */
const MAX_ELEMENTS = 25_000;
const MAX_DEPTH = 400;

function tooLarge(doc: DomDocument): boolean {
  if (doc.body === null) return true;
  const [elements, depth] = treeSize(doc.body, MAX_ELEMENTS);
  return elements > MAX_ELEMENTS || depth > MAX_DEPTH;
}

function readable(doc: DomDocument): DomElement | null {
  if (tooLarge(doc)) return null;
  if (doc.body) dropConsentBanners(doc.body);
  return readabilityContent(doc);
}

/** Readability's article when the page is one article, else the page without its chrome. */
function hybrid(input: MainContentInput): [DomElement | null, boolean] {
  const { doc, reparse, articleHint } = input;
  if (tooLarge(doc)) return [pageContent(doc), true];
  const total = doc.body ? contentLength(doc.body) : 0;
  if (doc.body) {
    dropConsentBanners(doc.body);
    dropWidgets(doc.body); // before Readability, which strips the inputs that tell them apart
  }
  const article = readabilityContent(doc);
  let length = 0;
  if (article !== null) {
    const paragraphs = longParagraphs(article);
    if (articleHint && paragraphs >= 1) return [article, false];
    // Measured without chrome: Readability can pick a long footer on a short page.
    length = contentLength(article);
    const prose = paragraphs >= PROSE_PARAGRAPHS || input.productHint === true;
    if (length >= ARTICLE_SHARE * total && (prose || total === 0)) return [article, false];
  }
  const fresh = reparse();
  const page = fresh === null ? null : pageContent(fresh);
  // The page without its chrome can be less than the article (its wrapper named as chrome).
  if (page === null || (article !== null && length > 0 && contentLength(page) < length))
    return [article ?? doc.body, false];
  return [page, true];
}

function choose(
  input: MainContentInput,
  strategy: MainContentStrategy,
): [DomElement | null, boolean] {
  const { doc } = input;
  switch (strategy) {
    case "readability":
    case "readability-clean":
      return [readable(doc) ?? doc.body, false];
    case "own":
      return [semanticContainer(doc) ?? densestContainer(doc) ?? doc.body, false];
    case "semantic-readability":
      return [semanticContainer(doc) ?? readable(doc) ?? doc.body, false];
    case "page":
      return [pageContent(doc), true];
    case "hybrid":
      return hybrid(input);
  }
}

function pageRules(productHint: boolean | undefined): BoilerplateRules {
  return productHint ? { ...PAGE_RULES, linkDensity: true, linkListShare: 0.5 } : PAGE_RULES;
}

/** Blocks the page repeats (a panel for phones and one for desktops, one of them hidden by a
 * stylesheet; a quoted post): its hidden parts go first, then the later copies. */
function dropRepeats(node: DomElement, page: boolean): void {
  dropNeverContent(node);
  dropRepeatedBlocks(node, page);
}

/** The chosen node's pruning: widgets, boilerplate (a page's rules or an article's), repeats. */
function prune(node: DomElement, page: boolean, productHint: boolean | undefined): void {
  dropWidgets(node);
  if (productHint) dropPriceLines(node);
  if (page) dropRepeatedLabels(node);
  dropBoilerplate(node, page ? pageRules(productHint) : undefined);
  dropRepeats(node, page);
}

/** A page's pruning of a container chosen without main-content selection (a `<main>` holding a
 * data table): widgets, boilerplate, repeats. On dev product pages (Steam, shops' spec tables)
 * these containers kept their reviews, upsells and promos. */
export function prunePageContainer(node: DomElement, productHint: boolean): void {
  prune(node, true, productHint);
}

/** The main content node of the page (its tree may be rewritten), or null when there is none. */
export function selectMainContent(
  input: MainContentInput,
  strategy: MainContentStrategy = DEFAULT_STRATEGY,
): DomElement | null {
  const [node, page] = choose(input, strategy);
  if (node === null || strategy === "readability") return node;
  const before = strategy === "hybrid" && !page ? contentLength(node) : 0;
  prune(node, page, input.productHint);
  // Readability returns the whole page for a listing (a blog index, a press list), and the
  // article's pruning then drops the list itself: when pruning leaves almost nothing of what
  // Readability chose, the page without its chrome is the content.
  if (before > 0 && contentLength(node) < PRUNED_AWAY * before) {
    const fresh = input.reparse();
    const content = fresh === null ? null : pageContent(fresh);
    if (content !== null) {
      prune(content, true, input.productHint);
      if (contentLength(content) > contentLength(node)) return content;
    }
  }
  return node;
}
