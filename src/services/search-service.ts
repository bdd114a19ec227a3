/** Hybrid search over page chunks: the request's meaning; the engines live in src/search. */
import type { Config } from "../config.ts";
import { TOPIC_VALUES, TYPE_VALUES } from "../facets/vocabulary.ts";
import type { SearchMode } from "../schemas/params.ts";
import { notImplemented } from "./errors.ts";
import {
  applied,
  checkQ,
  parseCollection,
  parseDomains,
  parseLocales,
  splitList,
} from "./params.ts";

export interface SearchArgs {
  q: string;
  mode?: SearchMode;
  domain?: string;
  collection?: string;
  locale?: string;
  type?: string;
  topics?: string;
  technicality_min?: number;
  limit?: number;
}

export interface SearchFilters {
  readonly domains: readonly string[];
  readonly collection: string | null;
  readonly locales: readonly string[];
  readonly types: readonly string[];
  readonly topics: readonly string[];
  readonly technicalityMin: number | null;
}

export function searchRequest(config: Config, args: SearchArgs) {
  const q = checkQ(args.q) ?? "";
  const filters: SearchFilters = {
    domains: parseDomains(args.domain, config.allowPrivateSuffixes),
    collection: parseCollection(args.collection),
    locales: parseLocales(args.locale),
    types: splitList("type", args.type, TYPE_VALUES),
    topics: splitList("topics", args.topics, TOPIC_VALUES),
    technicalityMin: args.technicality_min ?? null,
  };
  return {
    q,
    mode: args.mode ?? "hybrid",
    limit: args.limit ?? 10,
    filters,
    applied: applied({
      domain: filters.domains,
      collection: filters.collection,
      locale: filters.locales,
      type: filters.types,
      topics: filters.topics,
      technicality_min: filters.technicalityMin,
    }),
  };
}

export function search(config: Config, args: SearchArgs): never {
  searchRequest(config, args);
  throw notImplemented("search");
}
