/**
 * Search over the shards in scope. Each engine runs inside every shard with the filters as an
 * Orama `where` clause (so `limit` hits come back whenever that many chunks match); the shards'
 * lists are merged on score (BM25 of each shard's own statistics, as per-shard IDF in any
 * sharded engine; cosine for vectors), and `hybrid` fuses the two merged lists on pages over
 * each engine's top 100 (fusion.ts, page sums with k = 1). A domain filter touches one
 * shard. The query vector is an argument: the embedder is not this module's business. It may be
 * a promise (the query being embedded on another thread): the text engine runs over the shards
 * while it resolves, then the vector engine (test/bench/query-embedding.ts).
 */
import { type FusedHit, pageDiverseRrf } from "./fusion.ts";
import type { ShardHit, ShardWhere } from "./shard.ts";
import type { ShardRegistry } from "./shard-registry.ts";

export type SearchMode = "hybrid" | "text" | "vector";

/** Candidates per engine before fusion (the reference's CANDIDATES). */
export const CANDIDATES = 100;
/**
 * Hybrid fusion: each engine scores a page by Σ 1/(k + rank) over its chunks in the engine's
 * top 100, k = 1, engines weighted alike. Chosen on the tune split of the judged queries among
 * page-first RRF, page sums and chunk RRF, k in 1/10/30/60, text weight 0.5-2
 * (`test/eval/search/evaluate.ts --explore`): tune nDCG@10 0.865 against 0.830 for the
 * reference's page-first RRF with k = 10 on the same engines (holdout 0.817 against 0.808).
 */
export const RRF_K = 1;
export const PAGE_SCORE = "sum";

export interface SearchFilters {
  readonly types?: readonly string[];
  /** BCP 47 tags or ranges: `en` matches `en`, `en-US`, `en-GB`. */
  readonly locales?: readonly string[];
  readonly topics?: readonly string[];
  readonly technicalityMin?: number | null;
}

export interface ShardSearchRequest {
  readonly q: string;
  readonly mode: SearchMode;
  /** The embedded query, or its promise; required for `vector` and `hybrid`. */
  readonly vector?: ArrayLike<number> | Promise<ArrayLike<number>> | null;
  /** The shards in scope (a domain filter is one domain; a collection its domains). */
  readonly domains: readonly string[];
  readonly filters?: SearchFilters;
  readonly limit: number;
}

export interface SearchHit {
  readonly chunkId: string;
  readonly pageId: string;
  readonly domain: string;
  readonly heading: string;
  readonly text: string;
  /** hybrid: the page's fused RRF score; text: bm25/(1+bm25); vector: cosine in [0, 1]. */
  readonly score: number;
  /** 1-based rank of the chunk in each engine's merged list. */
  readonly ranks: { readonly text?: number; readonly vector?: number };
}

/** The filters as one Orama `where` clause (its keys are ANDed); empty when none. */
export function whereClause(filters: SearchFilters = {}): ShardWhere {
  const where: ShardWhere = {};
  if (filters.types?.length) where.type = { in: [...filters.types] };
  if (filters.locales?.length) {
    where.locale = {
      containsAny: filters.locales.map((l) => l.toLowerCase().replaceAll("_", "-")),
    };
  }
  if (filters.topics?.length) where.topics = { containsAny: [...filters.topics] };
  if (filters.technicalityMin !== undefined && filters.technicalityMin !== null) {
    where.technicality = { gte: filters.technicalityMin };
  }
  return where;
}

interface DomainHit extends ShardHit {
  readonly domain: string;
}

function merge(lists: DomainHit[][], k: number): DomainHit[] {
  return lists
    .flat()
    .sort(
      (a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0),
    )
    .slice(0, k);
}

function key(hit: DomainHit): string {
  return `${hit.domain}\u0000${hit.chunkId}`;
}

/** Hits for `request`, best first, at most `limit`. */
export async function searchShards(
  registry: ShardRegistry,
  request: ShardSearchRequest,
): Promise<SearchHit[]> {
  const { mode, limit } = request;
  const vector = request.vector ?? null;
  // A vector still being embedded may fail after an early return below: awaited later or not,
  // its rejection is never left unhandled here (the await below still throws it).
  if (vector instanceof Promise) vector.catch(() => undefined);
  if (limit <= 0 || request.domains.length === 0) return [];
  if (mode !== "text" && vector === null) {
    throw new RangeError(`mode=${mode} needs the query vector`);
  }
  const where = whereClause(request.filters);
  const k = mode === "hybrid" ? Math.max(limit, CANDIDATES) : limit;
  const domains = [...new Set(request.domains)];
  const textLists: DomainHit[][] = [];
  const vectorLists: DomainHit[][] = [];
  if (mode !== "vector") {
    for (const domain of domains) {
      const shard = await registry.shard(domain);
      textLists.push(shard.searchText(request.q, k, where).map((h) => ({ ...h, domain })));
    }
  }
  if (mode !== "text" && vector !== null) {
    const query = await vector;
    // Last searched first: under a memory budget smaller than the scope, the shards the text
    // pass loaded last are still there. The lists go back into domain order.
    for (const domain of domains.toReversed()) {
      const shard = await registry.shard(domain);
      vectorLists.unshift(shard.searchVector(query, k, where).map((h) => ({ ...h, domain })));
    }
  }
  const text = merge(textLists, k);
  const vectors = merge(vectorLists, k);
  if (mode === "text") {
    return text.map((h, i) => ({ ...h, score: h.score / (1 + h.score), ranks: { text: i + 1 } }));
  }
  if (mode === "vector") {
    return vectors.map((h, i) => ({
      ...h,
      score: Math.max(0, Math.min(1, h.score)),
      ranks: { vector: i + 1 },
    }));
  }
  const byKey = new Map<string, DomainHit>();
  const pageOf = new Map<string, string>();
  for (const hit of [...text, ...vectors]) {
    byKey.set(key(hit), hit);
    pageOf.set(key(hit), `${hit.domain}\u0000${hit.pageId}`);
  }
  const fused: FusedHit[] = pageDiverseRrf(
    { text: text.map(key), vector: vectors.map(key) },
    pageOf,
    { k: RRF_K, limit, pageScore: PAGE_SCORE },
  );
  return fused.map((f) => {
    const hit = byKey.get(f.id) as DomainHit;
    return {
      chunkId: hit.chunkId,
      pageId: hit.pageId,
      domain: hit.domain,
      heading: hit.heading,
      text: hit.text,
      score: f.score,
      ranks: f.ranks,
    };
  });
}
