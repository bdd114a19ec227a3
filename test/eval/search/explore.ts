/**
 * Client-side fusion variants over the engines' own rankings, to tune hybrid search on the tune
 * split (the reference's eval/search/explore.py). Each query's text and vector rankings are
 * fetched once through the API (`limit=200`: the evaluation's service allows it), then fused
 * here: chunk-level RRF, page-level RRF (each engine's list deduped to pages by first chunk, as
 * the server does), and page-level RRF over each page's chunks summed (CombSUM of reciprocal
 * ranks), with k, text weight and candidates per engine varied. Choose on `tune`; holdout
 * confirms. The variant the server runs (shard-search.ts: page sums, RRF_K, weight 1, 100 candidates) is
 * marked.
 */

import { RRF_K } from "../../../src/search/shard-search.ts";
import type { Query } from "./corpus.ts";
import { type Mode, type SearchHit, searchHits } from "./evaluate.ts";
import { dedupePages, mean, ndcgAtK, pagePath, recallAtK } from "./metrics.ts";
import type { Service } from "./service.ts";

const DEPTH = 200;
type Hits = readonly SearchHit[];
type Fuse = (text: Hits, vector: Hits) => string[];

/** Weighted RRF over id lists; an id repeated in one list counts at its best rank. */
export function rrf(
  lists: Readonly<Record<string, readonly string[]>>,
  k: number,
  weights: Readonly<Record<string, number>> = {},
): string[] {
  const scores = new Map<string, number>();
  for (const [name, items] of Object.entries(lists)) {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item)) return;
      seen.add(item);
      scores.set(item, (scores.get(item) ?? 0) + (weights[name] ?? 1) / (k + i + 1));
    });
  }
  return [...scores.keys()].sort(
    (a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0),
  );
}

const urls = (hits: Hits) => hits.map((h) => h.url);

function chunkRrf(k: number, wText: number, depth: number): Fuse {
  return (t, v) => {
    const url = new Map([...t, ...v].map((h) => [h.chunk_id, h.url]));
    const ids = rrf(
      {
        text: t.slice(0, depth).map((h) => h.chunk_id),
        vector: v.slice(0, depth).map((h) => h.chunk_id),
      },
      k,
      { text: wText },
    );
    // The API returns 10 chunks: the pages among them.
    return dedupePages(ids.slice(0, 10).map((id) => url.get(id) ?? id));
  };
}

function pageRrf(k: number, wText: number, depth: number): Fuse {
  return (t, v) =>
    rrf(
      { text: dedupePages(urls(t.slice(0, depth))), vector: dedupePages(urls(v.slice(0, depth))) },
      k,
      { text: wText },
    );
}

/** Each engine scores a page by Σ 1/(k + rank) over its chunks in the list; engines summed. */
function pageSum(k: number, wText: number, depth: number): Fuse {
  return (t, v) => {
    const scores = new Map<string, number>();
    for (const [hits, w] of [
      [t, wText],
      [v, 1],
    ] as const) {
      hits.slice(0, depth).forEach((h, i) => {
        const p = pagePath(h.url);
        scores.set(p, (scores.get(p) ?? 0) + w / (k + i + 1));
      });
    }
    return [...scores.keys()].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0));
  };
}

export function variants(): Map<string, Fuse> {
  const out = new Map<string, Fuse>([
    ["text only (10 chunks)", (t) => dedupePages(urls(t.slice(0, 10)))],
    ["vector only (10 chunks)", (_t, v) => dedupePages(urls(v.slice(0, 10)))],
    ["text only (pages of 100)", (t) => dedupePages(urls(t.slice(0, 100)))],
    ["vector only (pages of 100)", (_t, v) => dedupePages(urls(v.slice(0, 100)))],
  ]);
  for (const depth of [50, 100, 200]) {
    for (const k of [1, 10, 30, 60]) {
      for (const w of [0.5, 0.75, 1, 1.5, 2]) {
        const tag = `k=${k} w_text=${w} cand=${depth}`;
        out.set(`page-rrf ${tag}`, pageRrf(k, w, depth));
        if (depth === 100) {
          out.set(`chunk-rrf ${tag}`, chunkRrf(k, w, depth));
          out.set(`page-sum ${tag}${k === RRF_K && w === 1 ? " *" : ""}`, pageSum(k, w, depth));
        }
      }
    }
  }
  return out;
}

export async function fetchRankings(
  service: Service,
  queries: readonly Query[],
): Promise<{ q: Query; text: Hits; vector: Hits }[]> {
  const runs: { q: Query; text: Hits; vector: Hits }[] = [];
  for (const q of queries) {
    const get = (mode: Mode) => searchHits(service, q, mode, DEPTH);
    runs.push({ q, text: await get("text"), vector: await get("vector") });
  }
  return runs;
}

export async function explore(service: Service, queries: readonly Query[]): Promise<void> {
  const runs = await fetchRankings(service, queries);
  const rows: { name: string; tune: number; holdout: number; recall: number }[] = [];
  for (const [name, fuse] of variants()) {
    const per: Record<string, { ndcg: number; recall: number }[]> = { tune: [], holdout: [] };
    for (const { q, text, vector } of runs) {
      const ranked = fuse(text, vector);
      per[q.split]?.push({
        ndcg: ndcgAtK(ranked, q.relevant),
        recall: recallAtK(ranked, q.relevant),
      });
    }
    rows.push({
      name,
      tune: mean((per.tune ?? []).map((x) => x.ndcg)),
      holdout: mean((per.holdout ?? []).map((x) => x.ndcg)),
      recall: mean((per.holdout ?? []).map((x) => x.recall)),
    });
  }
  rows.sort((a, b) => b.tune - a.tune);
  console.log(
    `\n${"variant (sorted by tune nDCG@10)".padEnd(44)} ${"tune".padStart(7)} ${"holdout".padStart(8)} ${"R@10 ho".padStart(8)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(44)} ${r.tune.toFixed(4).padStart(7)} ${r.holdout.toFixed(4).padStart(8)} ${r.recall.toFixed(3).padStart(8)}`,
    );
  }
}
