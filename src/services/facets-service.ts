/** `GET /api/facets`: every facet with its values and page counts, for building valid filters. */
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { facetCounts } from "../db/pages-repo.ts";
import { AUDIENCES, FORMATS, TOPICS, TYPES } from "../facets/vocabulary.ts";
import { requireShelf } from "./collections-service.ts";
import { envelope } from "./envelope.ts";
import { applied, parseCollection, parseDomains } from "./params.ts";

const SCORES = [
  ["technicality", "technicality_min", "0 lay reader .. 1 specialist"],
  ["depth", "depth_min", "0 thin .. 1 substantive and specific"],
  ["originality", "originality_min", "0 duplicated / boilerplate / syndicated .. 1 unique"],
  ["promotional", "promotional_max", "0 neutral .. 1 pure sales copy"],
] as const;

function vocabulary(
  name: string,
  values: Readonly<Record<string, string>>,
  counts: { value: string | null; n: number }[],
) {
  const byValue = new Map(counts.map((c) => [c.value, c.n]));
  return {
    facet: name,
    param: name,
    kind: "vocabulary" as const,
    values: Object.entries(values).map(([value, definition]) => ({
      value,
      definition,
      pages: byValue.get(value) ?? 0,
    })),
  };
}

export function listFacets(db: Db, config: Config, args: { domain?: string; collection?: string }) {
  const domains = parseDomains(args.domain, config.allowPrivateSuffixes);
  const collection = parseCollection(args.collection);
  requireShelf(db, collection);
  const counts = facetCounts(db, { domains, collection });
  const code = new Map(counts.hasCode.map((c) => [c.value, c.n]));
  const data = [
    vocabulary("type", TYPES, counts.type),
    vocabulary("format", FORMATS, counts.format),
    vocabulary("audience", AUDIENCES, counts.audience),
    vocabulary("topics", TOPICS, counts.topics),
    {
      facet: "locale",
      param: "locale",
      kind: "tags" as const,
      definition:
        "BCP 47 language tag, region when the page states one; the filter de matches de, de-DE, de-AT",
      values: counts.locale.map((c) => ({ value: c.value ?? "", pages: c.n })),
    },
    {
      facet: "has_code",
      param: "has_code",
      kind: "boolean" as const,
      definition:
        "the main content shows at least one code block of code or commands (inline identifiers alone do not count)",
      values: [
        { value: true, pages: code.get(true) ?? 0 },
        { value: false, pages: code.get(false) ?? 0 },
      ],
    },
    ...SCORES.map(([facet, param, definition]) => ({
      facet,
      param,
      kind: "score" as const,
      definition,
      range: [0, 1],
    })),
    {
      facet: "words",
      param: "words_min",
      kind: "integer" as const,
      definition: "words of main content",
    },
    {
      facet: "published",
      param: "published_after",
      kind: "date" as const,
      definition: "publication date stated by the page (or its sitemap), else null",
    },
  ];
  return { data, pages: counts.pages, applied: applied({ domain: domains, collection }) };
}

/** The facets as a list envelope: every facet on one page, with the pages in scope. */
export function facetList(
  db: Db,
  config: Config,
  args: { domain?: string; collection?: string },
  unrecognized: readonly string[],
) {
  const result = listFacets(db, config, args);
  const page = {
    data: result.data,
    total: result.data.length,
    limit: result.data.length,
    offset: 0,
    sort: "facet",
    applied: result.applied,
  };
  return { ...envelope(page, unrecognized), pages: result.pages };
}
