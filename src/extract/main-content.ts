/** Main-content selection for pages that are not documentation. */
import type { DomDocument, DomElement } from "./dom.ts";
import { readabilityContent } from "./readability-content.ts";

export const MAIN_CONTENT_STRATEGIES = ["readability"] as const;
export type MainContentStrategy = (typeof MAIN_CONTENT_STRATEGIES)[number];

export function selectMainContent(
  doc: DomDocument,
  strategy: MainContentStrategy = "readability",
): DomElement | null {
  switch (strategy) {
    case "readability":
      return readabilityContent(doc) ?? doc.body;
  }
}
