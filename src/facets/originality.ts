/**
 * originality: 1 - duplication, in [0, 1]. Duplication is the larger of the near-duplicate
 * evidence (the page's highest SimHash similarity to another page of the domain: 0 at ≤ 0.75 up
 * to 1 at ≥ 0.95) and the boilerplate share (template-link anchor words against main-content
 * words, weighing 0.8). Pages under 100 words are capped: their text is mostly template.
 * 0 duplicated / boilerplate / syndicated, 1 unique in the corpus.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import type { ScoredPage } from "./score-page.ts";
import { unitScore } from "./scores.ts";
import { countWhitespaceSplit } from "./unicode-regex.ts";

/** Template-link anchor words / (those + main-content words): how much of the page is chrome. */
export function boilerplateShare(doc: ExtractedDocument, words: number = doc.words): number {
  let template = 0;
  for (const link of doc.links) {
    if (link.position === "template") template += countWhitespaceSplit(link.anchorText);
  }
  return template / Math.max(1, template + words);
}

/** Near-duplicate evidence of a highest similarity: 0 at ≤ 0.75, 1 at ≥ 0.95. */
export function duplication(maxSimilarity: number): number {
  return Math.min(1, Math.max(0, (maxSimilarity - 0.75) / 0.2));
}

/** Originality from the boilerplate share and the highest SimHash similarity to another page of
 * the domain (0 when there is none); `words` applies the short-page cap. */
export function originalityFrom(
  boilerplate: number,
  maxSimilarity: number,
  words?: number,
): number {
  let score = 1 - Math.max(duplication(maxSimilarity), 0.8 * boilerplate);
  if (words !== undefined && words < 100) score = Math.min(score, 0.3 + (0.7 * words) / 100);
  return unitScore(score);
}

export function originality(
  doc: ExtractedDocument,
  words: number,
  maxSimilarity: number,
  why: string[],
): number {
  const boilerplate = boilerplateShare(doc, words);
  why.push(
    `max similarity ${maxSimilarity.toFixed(3)} -> dup ${duplication(maxSimilarity).toFixed(2)}, ` +
      `boilerplate ${boilerplate.toFixed(2)}`,
  );
  return originalityFrom(boilerplate, maxSimilarity, words);
}

/**
 * The page's originality once its domain's nearest other page is known: a crawl worker scores a
 * page with `maxSimilarity` 0 and hands back `simhash`; the thread that owns the domain's
 * `SimhashIndex` finishes the score here, without the document (and without loading the
 * scoring modules, the language detector's database among them: the main thread imports this).
 */
export function withMaxSimilarity(scored: ScoredPage, maxSimilarity: number): ScoredPage {
  const dup = Math.min(1, Math.max(0, (maxSimilarity - 0.75) / 0.2));
  const why = `max similarity ${maxSimilarity.toFixed(3)} -> dup ${dup.toFixed(2)}, boilerplate ${scored.boilerplate.toFixed(2)}`;
  return {
    ...scored,
    facets: {
      ...scored.facets,
      originality: originalityFrom(scored.boilerplate, maxSimilarity, scored.facets.words),
    },
    explain: { ...scored.explain, originality: [why] },
  };
}
