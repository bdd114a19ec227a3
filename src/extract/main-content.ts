/** Main-content selection for pages that are not documentation. */
import { ALL_RULES, type BoilerplateRules, dropBoilerplate } from "./boilerplate.ts";
import type { DomDocument, DomElement } from "./dom.ts";
import { readabilityContent } from "./readability-content.ts";

export const MAIN_CONTENT_STRATEGIES = ["readability", "readability-clean"] as const;
export type MainContentStrategy = (typeof MAIN_CONTENT_STRATEGIES)[number];

function rulesFromEnv(): BoilerplateRules {
  const off = (Bun.env.BOILERPLATE_OFF ?? "").split(",");
  return {
    names: !off.includes("names"),
    captions: !off.includes("captions"),
    linkDensity: !off.includes("linkDensity"),
  };
}

export function selectMainContent(
  doc: DomDocument,
  strategy: MainContentStrategy = "readability-clean",
): DomElement | null {
  const node = readabilityContent(doc) ?? doc.body;
  if (strategy === "readability-clean" && node)
    dropBoilerplate(node, Bun.env.BOILERPLATE_OFF ? rulesFromEnv() : ALL_RULES);
  return node;
}
