/** Hybrid search over page chunks: the request's meaning, then the shards (src/search). */

import type { Config } from "../config.ts";
import { storedDomains } from "../db/chunks-repo.ts";
import type { Db } from "../db/client.ts";
import { shelfMembers } from "../db/collections-repo.ts";
import { pageHeads } from "../db/pages-repo.ts";
import { TOPIC_VALUES, TYPE_VALUES } from "../facets/vocabulary.ts";
import { counted } from "../plural.ts";
import type { SearchMode } from "../schemas/params.ts";
import { anchorsOnly } from "../search/link-anchors.ts";
import { demoteListings } from "../search/listing-demotion.ts";
import type { ShardRegistry } from "../search/shard-registry.ts";
import { searchShards } from "../search/shard-search.ts";
import { requireShelf } from "./collections-service.ts";
import type { TextPages } from "./content-service.ts";
import { ServiceError } from "./errors.ts";
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

export function searchRequest(config: Config, args: SearchArgs) {
  const q = checkQ(args.q) ?? "";
  const filters = {
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

export interface SearchDeps {
  readonly config: Config;
  readonly db: Db;
  readonly registry: ShardRegistry;
  /** The query's embedding; null when this server embeds nothing (text search only). */
  readonly embedQuery: ((q: string) => Promise<Float32Array>) | null;
  /** Why a domain's shard may miss pages SQLite has (it is rebuilding); null when whole. */
  readonly indexStatus?: (domain: string) => string | null;
}

/** Said by a search whose scope holds a domain whose shard is not whole yet. */
export interface PartialAnswer {
  reason: string;
  domains: { domain: string; status: string }[];
}

/** The domains of `scope` whose shard is not whole, if any. */
export function partialOf(
  deps: Pick<SearchDeps, "indexStatus">,
  scope: readonly string[],
): PartialAnswer | null {
  const domains = scope.flatMap((domain) => {
    const status = deps.indexStatus?.(domain) ?? null;
    return status ? [{ domain, status }] : [];
  });
  if (domains.length === 0) return null;
  return {
    reason: `the search index of ${counted(domains.length, "domain")} is being rebuilt from the database: results may miss pages of ${domains.length === 1 ? "it" : "them"} until it is done`,
    domains,
  };
}

export interface SearchResponse {
  data: {
    chunk_id: string;
    page_id: string;
    url: string;
    title: string | null;
    domain: string;
    heading: string;
    text: string;
    score: number;
    ranks: { text?: number; vector?: number };
  }[];
  query: string;
  mode: SearchMode;
  limit: number;
  applied: Record<string, unknown>;
  /** Present when a domain in scope is rebuilding (its answers may be incomplete). */
  partial?: PartialAnswer;
}

/** Chunks the full-text engine ranks for `q` on /api/content, before the page filters. */
export const MAX_Q_CHUNKS = 2000;

function scopeDomains(db: Db, domains: readonly string[], collection: string | null): string[] {
  if (collection) {
    const members = new Set(shelfMembers(db, collection).map((m) => m.domain));
    return domains.length ? domains.filter((d) => members.has(d)) : [...members];
  }
  return domains.length ? [...domains] : storedDomains(db);
}

/**
 * Page ids matching `q` by full text, best first (a page ranks by its best chunk), within the
 * filter's companies: what `q` on /api/content ranks by.
 */
export function textPages(deps: SearchDeps): NonNullable<TextPages> {
  return async (q, filter) => {
    const domains = scopeDomains(deps.db, filter.domains, filter.collection);
    const hits = await searchShards(deps.registry, {
      q,
      mode: "text",
      vector: null,
      domains,
      filters: {
        types: filter.types,
        locales: filter.locales,
        topics: filter.topics,
        technicalityMin: filter.technicalityMin,
      },
      limit: MAX_Q_CHUNKS,
    });
    return { ids: [...new Set(hits.map((h) => h.pageId))], partial: partialOf(deps, domains) };
  };
}

export async function search(deps: SearchDeps, args: SearchArgs): Promise<SearchResponse> {
  const request = searchRequest(deps.config, args);
  requireShelf(deps.db, request.filters.collection);
  let mode = request.mode;
  if (mode !== "text" && !deps.embedQuery) {
    if (mode === "vector") {
      throw new ServiceError(
        "invalid_parameter",
        "mode: vector search is turned off on this server (WEBCORPUS_EMBEDDINGS=false)",
        { errors: [{ param: "mode", message: "vector search is turned off" }] },
      );
    }
    mode = "text";
  }
  const { filters } = request;
  const domains = scopeDomains(deps.db, filters.domains, filters.collection);
  // Not awaited here: the query is embedded on the pool's query lane while the text engine runs.
  const vector = mode === "text" || !deps.embedQuery ? null : deps.embedQuery(request.q);
  vector?.catch(() => undefined); // a failure surfaces where searchShards awaits it
  const hits = await searchShards(deps.registry, {
    q: request.q,
    mode,
    vector,
    domains,
    filters: {
      types: filters.types,
      locales: filters.locales,
      topics: filters.topics,
      technicalityMin: filters.technicalityMin,
    },
    limit: request.limit,
  });
  const heads = pageHeads(
    deps.db,
    hits.map((h) => h.pageId),
  );
  // A listing ranks below the pages it lists, unless listings are what was asked for.
  const ranked = filters.types.includes("listing")
    ? hits
    : demoteListings(hits, (h) => heads.get(h.pageId)?.type === "listing");
  const data = ranked.flatMap((h) => {
    const head = heads.get(h.pageId);
    if (!head) return []; // deleted since it was indexed
    return [
      {
        chunk_id: h.chunkId,
        page_id: h.pageId,
        url: head.url,
        title: head.title,
        domain: h.domain,
        // Stored heading paths keep their links (text search reads them); shown, they are noise.
        heading: anchorsOnly(h.heading),
        text: h.text,
        score: Math.round(h.score * 10_000) / 10_000,
        ranks: h.ranks,
      },
    ];
  });
  const partial = partialOf(deps, domains);
  return {
    data,
    query: request.q,
    mode,
    limit: request.limit,
    applied: request.applied,
    ...(partial ? { partial } : {}),
  };
}
