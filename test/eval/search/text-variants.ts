/**
 * Full-text variants on the evaluation corpus, to tune on the tune split what the server cannot
 * switch at query time: stemming in the tokenizer and the BM25 field weights. Each variant's
 * shards are built in this process from the corpus's SQLite (the chunks as stored) with the
 * shard components and a variant tokenizer or weights; its text ranking is scored alone and fused
 * (as the server fuses: shard-search.ts's RRF_K and PAGE_SCORE) with the vector ranking the service gives for the query.
 * The first variant is the product's: its text figures must equal the server's text mode.
 *
 *   bun test/eval/search/text-variants.ts [--data-dir DIR]
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { create, type Tokenizer } from "@orama/orama";
import { createChunkIndex } from "../../../src/search/chunk-index.ts";
import { createChunkStore } from "../../../src/search/chunk-store.ts";
import { pageDiverseRrf } from "../../../src/search/fusion.ts";
import { Shard } from "../../../src/search/shard.ts";
import { INDEX_CONFIG, SHARD_SCHEMA, type ShardDb } from "../../../src/search/shard-schema.ts";
import { PAGE_SCORE, RRF_K } from "../../../src/search/shard-search.ts";
import { createShardTokenizer, foldText } from "../../../src/search/tokenizer.ts";
import { DEFAULT_DATA, loadQueries, type Query } from "./corpus.ts";
import { type SearchHit, searchHits } from "./evaluate.ts";
import { dedupePages, mean, ndcgAtK, recallAtK } from "./metrics.ts";
import { startService } from "./service.ts";

const WORD = /[\p{L}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** The product tokenizer's tokens without the English stemmer (a copy of tokenizer.ts's rules). */
function unstemmed(text: string): string[] {
  const out: string[] = [];
  for (const match of foldText(text).matchAll(WORD)) {
    const word = match[0];
    if (word.length > 160) continue;
    if (!CJK.test(word)) {
      if (word.length <= 40) out.push(word);
      continue;
    }
    let last = 0;
    for (const run of word.matchAll(CJK_RUNS)) {
      const start = run.index ?? 0;
      if (start > last) out.push(word.slice(last, start));
      const chars = Array.from(run[0]);
      if (chars.length === 1) out.push(run[0]);
      for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
      last = start + run[0].length;
    }
    if (last < word.length) out.push(word.slice(last));
  }
  return out;
}

const STOP = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves near`.split(
    " ",
  ),
);

function unstemmedTokenizer(): Tokenizer {
  return {
    language: "english",
    normalizationCache: new Map(),
    tokenize(raw: string, _language?: string, prop?: string): string[] {
      if (typeof raw !== "string") return [];
      if (prop !== undefined) return unstemmed(raw);
      const distinct = [...new Set(unstemmed(raw))];
      const content = distinct.filter((t) => !STOP.has(t));
      return (content.length ? content : distinct).slice(0, 32);
    },
  };
}

interface Variant {
  readonly name: string;
  readonly tokenizer: () => Tokenizer;
  readonly weights: Readonly<Record<string, number>>;
}

const VARIANTS: Variant[] = [
  {
    name: "product: stemmed, title 4 heading 2 text 1",
    tokenizer: createShardTokenizer,
    weights: INDEX_CONFIG.textWeights,
  },
  { name: "unstemmed, 4/2/1", tokenizer: unstemmedTokenizer, weights: INDEX_CONFIG.textWeights },
  {
    name: "stemmed, 2/1/1",
    tokenizer: createShardTokenizer,
    weights: { title: 2, heading: 1, text: 1 },
  },
  {
    name: "stemmed, 1/1/1",
    tokenizer: createShardTokenizer,
    weights: { title: 1, heading: 1, text: 1 },
  },
  {
    name: "stemmed, 8/4/1",
    tokenizer: createShardTokenizer,
    weights: { title: 8, heading: 4, text: 1 },
  },
];

interface CorpusPage {
  id: string;
  url: string;
  domain: string;
  title: string;
  chunks: { heading: string; text: string }[];
}

function readCorpus(dataDir: string): CorpusPage[] {
  const db = new Database(join(dataDir, "webcorpus.db"), { readonly: true });
  try {
    const pages = new Map<string, CorpusPage>();
    for (const p of db
      .query<{ id: string; url: string; domain: string; title: string | null }, []>(
        "SELECT id, url, domain, title FROM pages ORDER BY domain, id",
      )
      .all()) {
      pages.set(p.id, { ...p, title: p.title ?? "", chunks: [] });
    }
    for (const c of db
      .query<{ page_id: string; heading: string; text: string }, []>(
        "SELECT page_id, heading, text FROM chunks ORDER BY page_id, idx",
      )
      .all()) {
      pages.get(c.page_id)?.chunks.push({ heading: c.heading, text: c.text });
    }
    return [...pages.values()];
  } finally {
    db.close();
  }
}

function buildShards(pages: readonly CorpusPage[], v: Variant): Map<string, Shard> {
  const shards = new Map<string, Shard>();
  for (const p of pages) {
    let shard = shards.get(p.domain);
    if (!shard) {
      const db = create({
        schema: SHARD_SCHEMA,
        sort: { enabled: false },
        components: {
          tokenizer: v.tokenizer(),
          index: createChunkIndex({ ...INDEX_CONFIG, textWeights: v.weights }),
          documentsStore: createChunkStore(),
        },
      }) as unknown as ShardDb;
      shard = new Shard(p.domain, db);
      shards.set(p.domain, shard);
    }
    shard.upsertPage({
      pageId: p.id,
      title: p.title,
      facets: { type: null, locale: null, topics: [], technicality: null },
      chunks: p.chunks,
    });
  }
  return shards;
}

const domainOf = (site: string, domains: readonly string[]) =>
  domains.find((d) => site === d || site.endsWith(`.${d}`)) ?? site;

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    args: Bun.argv.slice(2),
    options: { "data-dir": { type: "string", default: DEFAULT_DATA } },
  });
  const dataDir = args["data-dir"];
  const queries = loadQueries();
  const pages = readCorpus(dataDir);
  const urlOf = new Map(pages.map((p) => [p.id, p.url]));
  const service = await startService(dataDir, { EMBEDDINGS: "true" }, { worker: false });
  const vectors = new Map<string, SearchHit[]>();
  const serverText = new Map<string, string[]>();
  try {
    for (const q of queries) {
      vectors.set(q.id, await searchHits(service, q, "vector", 100));
      const text = await searchHits(service, q, "text", 10);
      serverText.set(q.id, dedupePages(text.map((h) => h.url)));
    }
  } finally {
    await service.stop();
  }
  const domains = [...new Set(pages.map((p) => p.domain))];
  console.log(
    `${"variant".padEnd(44)} ${"text tune".padStart(9)} ${"holdout".padStart(8)} ${"hybrid tune".padStart(11)} ${"holdout".padStart(8)} ${"R@10".padStart(6)}`,
  );
  for (const v of VARIANTS) {
    const t = performance.now();
    const shards = buildShards(pages, v);
    const buildS = (performance.now() - t) / 1000;
    const rows: { q: Query; text: number; hybrid: number; recall: number; same: boolean }[] = [];
    for (const q of queries) {
      const shard = shards.get(domainOf(q.site, domains));
      const hits = shard ? shard.searchText(q.query, 100) : [];
      const textPages = dedupePages(hits.slice(0, 10).map((h) => urlOf.get(h.pageId) ?? h.pageId));
      const vectorHits = vectors.get(q.id) ?? [];
      const pageOf = new Map<string, string>();
      for (const h of hits) pageOf.set(h.chunkId, h.pageId);
      for (const h of vectorHits) pageOf.set(h.chunk_id, h.page_id);
      const fused = pageDiverseRrf(
        { text: hits.map((h) => h.chunkId), vector: vectorHits.map((h) => h.chunk_id) },
        pageOf,
        { k: RRF_K, limit: 10, pageScore: PAGE_SCORE },
      );
      const hybridPages = dedupePages(fused.map((f) => urlOf.get(pageOf.get(f.id) ?? "") ?? f.id));
      rows.push({
        q,
        text: ndcgAtK(textPages, q.relevant),
        hybrid: ndcgAtK(hybridPages, q.relevant),
        recall: recallAtK(hybridPages, q.relevant),
        same: JSON.stringify(textPages) === JSON.stringify(serverText.get(q.id)),
      });
    }
    const of = (split: string, f: (r: (typeof rows)[number]) => number) =>
      mean(rows.filter((r) => r.q.split === split).map(f));
    console.log(
      `${v.name.padEnd(44)} ${of("tune", (r) => r.text)
        .toFixed(4)
        .padStart(9)} ${of("holdout", (r) => r.text)
        .toFixed(4)
        .padStart(8)} ${of("tune", (r) => r.hybrid)
        .toFixed(4)
        .padStart(11)} ${of("holdout", (r) => r.hybrid)
        .toFixed(4)
        .padStart(8)} ${of("holdout", (r) => r.recall)
        .toFixed(3)
        .padStart(
          6,
        )}  (built in ${buildS.toFixed(0)} s; text top 10 as the server's for ${rows.filter((r) => r.same).length}/${rows.length})`,
    );
    for (const s of shards.values()) s.dispose();
  }
}

if (import.meta.main) await main();
