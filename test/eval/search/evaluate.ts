/**
 * Search quality on the real doc sites: nDCG@10 and recall@10 per mode, split and site (the
 * reference's eval/search/evaluate.py).
 *
 *   WEBCORPUS_TEST_CACHE=/work/cache bun test/eval/search/evaluate.ts [--fresh] [--crawl-only]
 *       [--by-site] [--explore] [--json FILE] [--data-dir DIR] [--budget N (a smoke run)]
 *
 * The first run crawls docs.python.org, www.postgresql.org (the PostgreSQL 15 docs) and the
 * Debian handbook in the queries' languages (corpus.ts) with the real service, embeddings on,
 * into `<repo>/.cache/search-eval/data`; later runs reuse it (`--fresh` wipes it). Then a service
 * without crawl workers answers every query of queries.jsonl through `GET /api/search` with
 * `mode`, `limit=10` and `domain=<site>`. Hits map to pages: a page's rank is its first chunk's.
 * `--explore` fuses the engines' own rankings client-side (explore.ts) to tune on the tune split.
 */
import { rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import {
  BUDGETS,
  buildCorpus,
  DEFAULT_DATA,
  evalSites,
  loadQueries,
  type Manifest,
  type Query,
  readManifest,
} from "./corpus.ts";
import { explore } from "./explore.ts";
import { dedupePages, mean, ndcgAtK, normPath, pagePath, recallAtK } from "./metrics.ts";
import { type Service, startService } from "./service.ts";

export const MODES = ["text", "vector", "hybrid"] as const;
export type Mode = (typeof MODES)[number];
const SPLITS = ["tune", "holdout", "all"] as const;

export interface SearchHit {
  chunk_id: string;
  page_id: string;
  url: string;
  ranks: { text?: number; vector?: number };
}

export async function searchHits(
  service: Service,
  q: Query,
  mode: Mode,
  limit: number,
): Promise<SearchHit[]> {
  const body = await service.json<{ data: SearchHit[] }>("/api/search", {
    q: q.query,
    mode,
    limit,
    domain: q.site,
  });
  return body.data;
}

interface ModeResult {
  ndcg: number;
  recall: number;
  top: string[];
}
type Row = { id: string; split: string; site: string } & Record<Mode, ModeResult>;

type Summary = Record<string, Record<Mode, { n: number; ndcg: number; recall: number }>>;

function summarize(rows: readonly Row[]): Summary {
  const out: Summary = {};
  for (const split of SPLITS) {
    const sel = rows.filter((r) => split === "all" || r.split === split);
    out[split] = Object.fromEntries(
      MODES.map((m) => [
        m,
        {
          n: sel.length,
          ndcg: mean(sel.map((r) => r[m].ndcg)),
          recall: mean(sel.map((r) => r[m].recall)),
        },
      ]),
    ) as Summary[string];
  }
  return out;
}

function printTable(summary: Summary): void {
  const head = MODES.map((m) => `${`${m} nDCG`.padStart(12)} ${"R@10".padStart(6)}`).join("  ");
  console.log(`${"split".padEnd(8)} ${"n".padStart(4)}  ${head}`);
  for (const [split, modes] of Object.entries(summary)) {
    const cells = MODES.map(
      (m) => `${modes[m].ndcg.toFixed(4).padStart(12)} ${modes[m].recall.toFixed(3).padStart(6)}`,
    ).join("  ");
    console.log(`${split.padEnd(8)} ${String(modes.text.n).padStart(4)}  ${cells}`);
  }
}

/** Paths of the pages typed `listing` (tables of contents, indexes, ...) of each site. */
async function listingPaths(service: Service, sites: readonly string[]): Promise<Set<string>> {
  const paths = new Set<string>();
  for (const site of sites) {
    for (let offset = 0; ; offset += 100) {
      const page = await service.json<{ data: { url: string }[]; total: number }>("/api/content", {
        domain: site,
        type: "listing",
        limit: 100,
        offset,
      });
      for (const p of page.data) paths.add(`${site} ${pagePath(p.url)}`);
      if (offset + 100 >= page.total) break;
    }
  }
  return paths;
}

/** Judged pages the corpus lacks, as `id: site path`. */
async function missingJudged(service: Service, queries: readonly Query[]): Promise<string[]> {
  const missing: string[] = [];
  const known = new Map<string, Set<string>>();
  for (const site of new Set(queries.map((q) => q.site))) {
    const paths = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = await service.json<{ data: { url: string }[]; total: number }>("/api/content", {
        domain: site,
        limit: 100,
        offset,
      });
      for (const p of page.data) paths.add(pagePath(p.url));
      if (offset + 100 >= page.total) break;
    }
    known.set(site, paths);
  }
  for (const q of queries) {
    for (const p of Object.keys(q.relevant)) {
      if (!known.get(q.site)?.has(normPath(p))) missing.push(`${q.id}: ${q.site} ${p}`);
    }
  }
  return missing;
}

async function evaluate(service: Service, queries: readonly Query[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const q of queries) {
    const row = { id: q.id, split: q.split, site: q.site } as Row;
    for (const mode of MODES) {
      const ranked = dedupePages((await searchHits(service, q, mode, 10)).map((h) => h.url));
      row[mode] = {
        ndcg: ndcgAtK(ranked, q.relevant),
        recall: recallAtK(ranked, q.relevant),
        top: ranked.slice(0, 3),
      };
    }
    rows.push(row);
  }
  return rows;
}

function printManifest(m: Manifest): void {
  const s = m.stats;
  console.log(
    `corpus: ${s.pages.toLocaleString()} pages, ${s.chunks.toLocaleString()} chunks (${s.embedded.toLocaleString()} embedded); handbook languages ${m.languages.join(", ")}`,
  );
  for (const [d, v] of Object.entries(s.domains)) {
    console.log(
      `  ${d}: ${v.pages} pages, ${v.chunks} chunks, ${(v.tokens / Math.max(1, v.chunks)).toFixed(0)} word pieces a chunk`,
    );
  }
  console.log(`crawl with embeddings: ${m.crawlSeconds} s in all (built ${m.builtAt})`);
  for (const c of m.crawls) {
    console.log(
      `  ${c.domain}: ${c.state}, ${c.indexed} pages / ${c.chunks} chunks; pages stored after ${c.pagesSeconds} s, final after ${c.seconds} s; embedding ${c.embedPerS.whole} chunks/s over the job, ${c.embedPerS.duringCrawl} while pages came in, ${c.embedPerS.drain} after (${c.drainChunks} chunks); load ${c.loadAverage.join(" ")}`,
    );
  }
}

async function main(): Promise<number> {
  const { values: args } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      "data-dir": { type: "string", default: DEFAULT_DATA },
      queries: { type: "string" },
      fresh: { type: "boolean", default: false },
      "crawl-only": { type: "boolean", default: false },
      "by-site": { type: "boolean", default: false },
      explore: { type: "boolean", default: false },
      json: { type: "string" },
      budget: { type: "string" },
    },
  });
  const dataDir = args["data-dir"];
  const queries = loadQueries(args.queries);
  if (args.fresh) rmSync(dataDir, { recursive: true, force: true });
  let manifest = readManifest(dataDir);
  if (!manifest) {
    console.log(`crawling the doc sites into ${dataDir} (embeddings on) ...`);
    const budgets = args.budget
      ? Object.fromEntries(Object.keys(BUDGETS).map((d) => [d, Number(args.budget)]))
      : BUDGETS;
    manifest = await buildCorpus(dataDir, evalSites(queries), budgets, {});
  }
  printManifest(manifest);
  if (args["crawl-only"]) return 0;
  if (manifest.stats.embedded < manifest.stats.chunks) {
    console.log("WARNING: not every chunk has a vector: vector and hybrid figures are not valid");
  }
  // SEARCH_LIMIT 200: explore.ts reads each engine's list deeper than hybrid's 100 candidates.
  const service = await startService(
    dataDir,
    { EMBEDDINGS: "true", SEARCH_LIMIT: "200" },
    { worker: false },
  );
  try {
    const missing = await missingJudged(service, queries);
    if (missing.length) {
      console.log(`${missing.length} judged pages missing from the corpus:`);
      for (const m of missing.slice(0, 30)) console.log(`  ${m}`);
    }
    const t = performance.now();
    const rows = await evaluate(service, queries);
    console.log(
      `${queries.length} queries x ${MODES.length} modes in ${((performance.now() - t) / 1000).toFixed(1)} s (load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`,
    );
    printTable(summarize(rows));
    // A listing stays findable but should rank below the pages it lists (search-service.ts).
    const listings = await listingPaths(service, [...new Set(queries.map((q) => q.site))]);
    const inTop3 = MODES.map((m) => {
      const n = rows.filter((r) => r[m].top.some((u) => listings.has(`${r.site} ${pagePath(u)}`)));
      return `${m} ${n.length}/${rows.length}`;
    });
    console.log(
      `queries with a listing page in the top 3 (${listings.size} listings): ${inTop3.join(", ")}`,
    );
    if (args["by-site"]) {
      for (const site of [...new Set(queries.map((q) => q.site))].sort()) {
        console.log(`-- ${site}`);
        printTable(summarize(rows.filter((r) => r.site === site)));
      }
    }
    if (args.json) {
      writeFileSync(
        args.json,
        JSON.stringify({ summary: summarize(rows), queries: rows, manifest }, null, 1),
      );
    }
    if (args.explore) await explore(service, queries);
  } finally {
    await service.stop();
  }
  return 0;
}

if (import.meta.main) process.exitCode = await main();
