/** Main content chosen by Mozilla Readability (Firefox Reader View) on the linkedom document. */
import { Readability } from "@mozilla/readability";
import type { DomDocument, DomElement } from "./dom.ts";

/**
 * Readability's article element (a new `<div>` holding the original nodes it kept), or null.
 * Readability rewrites the document while it works: read links and metadata first. Null also
 * when Readability fails on the tree.
 */
export function readabilityContent(doc: DomDocument): DomElement | null {
  type Doc = ConstructorParameters<typeof Readability>[0];
  const reader = new Readability<DomElement>(doc as unknown as Doc, {
    keepClasses: true,
    serializer: (el) => el as unknown as DomElement,
  });
  try {
    return reader.parse()?.content ?? null;
  } catch {
    // Readability fails on some trees (a candidate without parent); the caller falls back.
    return null;
  }
}
