/**
 * Main-content selection for pages that are not documentation, then boilerplate pruning.
 * Strategies (compared by test/bench/extraction-f1.ts and the company-pages eval):
 * - `readability`: Mozilla Readability's article, as it is;
 * - `readability-clean`: Readability's article with our boilerplate pruning;
 * - `own`: our semantic container, else our densest-prose container, pruned;
 * - `semantic-readability`: our semantic container when the page has one, else Readability's
 *   article, pruned.
 */
import { dropBoilerplate, PAGE_RULES } from "./boilerplate.ts";
import { type DomDocument, type DomElement, nonSpaceLength, textOf } from "./dom.ts";
import { densestContainer, semanticContainer } from "./own-content.ts";
import { contentLength, pageContent } from "./page-content.ts";
import { readabilityContent } from "./readability-content.ts";

export const MAIN_CONTENT_STRATEGIES = [
  "readability",
  "readability-clean",
  "own",
  "semantic-readability",
  "page",
  "hybrid",
] as const;
export type MainContentStrategy = (typeof MAIN_CONTENT_STRATEGIES)[number];
export const DEFAULT_STRATEGY: MainContentStrategy = "readability-clean";

const RATIO = Number(Bun.env.HYBRID_RATIO ?? "0.5");

function hybrid(doc: DomDocument, reparse: () => DomDocument | null): [DomElement | null, boolean] {
  const total = doc.body ? contentLength(doc.body) : 0;
  const article = readabilityContent(doc);
  if (article && nonSpaceLength(textOf(article)) >= RATIO * total) return [article, false];
  const fresh = reparse();
  return [fresh ? pageContent(fresh) : article, true];
}

function choose(doc: DomDocument, strategy: MainContentStrategy): DomElement | null {
  switch (strategy) {
    case "readability":
    case "readability-clean":
      return readabilityContent(doc);
    case "own":
      return semanticContainer(doc) ?? densestContainer(doc);
    case "semantic-readability":
      return semanticContainer(doc) ?? readabilityContent(doc);
    case "page":
      return pageContent(doc);
    case "hybrid":
      return null;
  }
}

/** The main content node of `doc` (the tree may be rewritten), or null when there is none. */
export function selectMainContent(
  doc: DomDocument,
  strategy: MainContentStrategy = DEFAULT_STRATEGY,
  reparse: () => DomDocument | null = () => null,
): DomElement | null {
  if (strategy === "hybrid") {
    const [node, page] = hybrid(doc, reparse);
    if (node !== null) dropBoilerplate(node, page ? PAGE_RULES : undefined);
    return node;
  }
  const node = choose(doc, strategy) ?? doc.body;
  if (node !== null && strategy !== "readability")
    dropBoilerplate(node, strategy === "page" ? PAGE_RULES : undefined);
  return node;
}
