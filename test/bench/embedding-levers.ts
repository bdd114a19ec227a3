/**
 * Where the embedding time of a crawl goes, counted (not timed) on the exact texts the model
 * embeds, so the figures hold on a busy machine: the local doc sites are crawled with embeddings
 * off (`bun src/cli.ts crawl`, politeness off, each into a fresh data dir) and every chunk's
 * `embeddingText(chunk, title)` is counted with the model's own word-piece counter
 * (`loadTokenCounter`), [CLS] and [SEP] included, capped at the 256 window as the model reads it.
 *
 * Levers, each as a share of the word pieces (and of the chunks where that means something):
 * exact-repeat texts (every occurrence after the first; of the chunk text alone too, without the
 * title and heading path the model reads before it); pages with an index-like URL path, of
 * facet type `listing`, and those `vector-policy.ts` would cut to their first chunks; link URLs
 * inside the chunk text (`[anchor](url)`: the url's pieces); pieces past the 128th of each text
 * (all-MiniLM-L6-v2 was trained on 128-token inputs); chunks whose own text is a list of links,
 * whatever their page (the policy's structure test per chunk: a finer cut than per page); and the padding that batches of 2/4/8
 * would carry when grouped by length, within the indexer's rounds of 64 chunks (what
 * `embedPassages` does) and over the whole crawl (the floor).
 *
 * Then the cost of one run against its length on this CPU (one lane, one text per run, the int8
 * passage graph: ms per text at 32/64/128/192/256 word pieces, median of `--runs`, interleaved),
 * which turns the word-piece shares into time shares (each text priced at its length's cost,
 * interpolated).
 *
 *   bun test/bench/embedding-levers.ts [--sites python,handbook,postgres] [--data NAME=DIR,…]
 *                                      [--runs N] [--no-cost] [--pages]
 *
 * `--data python=/tmp/x` reads an existing crawl's data dir instead of crawling. For the Python
 * docs the robots-excluded general-index pages (`/genindex*`: the loopback site's robots.txt
 * disallows them, docs.python.org's does not) are also processed offline through the crawl
 * workers' own pipeline (`processPage` + `chunkMarkdown`) and reported as the row `python+genindex`.
 * `--pages` lists every page the vector policy cuts, for a person to judge.
 */

import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { processPage } from "../../src/crawl/process-page.ts";
import { chunkMarkdown, embeddingText } from "../../src/search/chunking.ts";
import { loadEmbedder } from "../../src/search/embedder.ts";
import { loadTokenCounter, MODEL_MAX_TOKENS } from "../../src/search/model-files.ts";
import { indexLikePath, markdownShape, vectorDecision } from "../../src/search/vector-policy.ts";
import type { TokenCounter } from "../../src/search/word-pieces.ts";
import { REPO_ROOT } from "../sites/support/debian-docs.ts";
import { type DocSite, docSites } from "../sites/support/doc-sites.ts";
import { cleanEnv, startDocServer } from "./support/crawl-runners.ts";
import { median } from "./support/stats.ts";

const SITES: Readonly<Record<string, { domain: string; budget: number }>> = {
  python: { domain: "docs.python.org", budget: 2000 },
  postgres: { domain: "www.postgresql.org", budget: 2000 },
  handbook: { domain: "debian-handbook.info", budget: 5000 },
};
const LENGTHS = [32, 64, 128, 192, 256] as const;
const ROUND = 64; // chunks per indexer round (WEBCORPUS_EMBED_BATCH's default)
const TRAINED = 128;

const { values } = parseArgs({
  options: {
    sites: { type: "string", default: "python,handbook,postgres" },
    data: { type: "string", default: "" },
    runs: { type: "string", default: "15" },
    "no-cost": { type: "boolean", default: false },
    pages: { type: "boolean", default: false },
  },
});

interface Text {
  readonly url: string;
  readonly pageKey: string;
  /** Word pieces the model reads: [CLS] + text + [SEP], at most 256. */
  readonly pieces: number;
  /** Word pieces of the link URLs in the text (uncapped). */
  readonly urlPieces: number;
  readonly hash: number | bigint;
  /** Of the chunk text alone (no title or heading path). */
  readonly textHash: number | bigint;
  /** The chunk is past the vectors its page keeps under the policy. */
  readonly policySkips: boolean;
  /** The chunk's own text is a list of links (per chunk, whatever its page). */
  readonly linkList: boolean;
  readonly listing: boolean;
  readonly indexPath: boolean;
}

interface PageRow {
  readonly url: string;
  readonly type: string;
  readonly title: string | null;
  readonly markdown: string;
  readonly chunks: readonly { heading: string; text: string }[];
}

interface Cut {
  readonly url: string;
  readonly type: string;
  readonly chunks: number;
  readonly vectors: number;
  readonly pieces_cut: number;
  readonly reason: string;
}

const LINK_URL = /(!?\[[^\]]*\])\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g;

function crawl(site: string, dir: string, connectTo: string): void {
  const spec = SITES[site];
  if (!spec) throw new Error(`no site ${site}`);
  const r = Bun.spawnSync(
    ["bun", "src/cli.ts", "crawl", spec.domain, "--budget", String(spec.budget)],
    {
      cwd: REPO_ROOT,
      env: {
        ...cleanEnv(),
        WEBCORPUS_DATA_DIR: dir,
        WEBCORPUS_CONNECT_TO: connectTo,
        WEBCORPUS_CONNECT_TO_ONLY: "true",
        WEBCORPUS_CRAWL_DELAY_S: "0",
        WEBCORPUS_ADAPTIVE_DELAY: "false",
        WEBCORPUS_HOST_CONCURRENCY: "16",
        WEBCORPUS_MAX_CONCURRENCY: "16",
        WEBCORPUS_EMBEDDINGS: "false",
      },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  if (r.exitCode !== 0) throw new Error(`crawl ${site}: ${r.stderr.toString().slice(-2000)}`);
}

function readPages(dataDir: string): PageRow[] {
  const db = new Database(join(dataDir, "webcorpus.db"), { readonly: true });
  try {
    const pages = db
      .query<{ id: string; url: string; type: string; title: string | null; markdown: string }, []>(
        "SELECT p.id, p.url, p.type, p.title, b.markdown FROM pages p JOIN page_bodies b ON b.page_id = p.id",
      )
      .all();
    const chunks = new Map<string, { heading: string; text: string }[]>();
    for (const c of db
      .query<{ page_id: string; heading: string; text: string }, []>(
        "SELECT page_id, heading, text FROM chunks ORDER BY id",
      )
      .all()) {
      const list = chunks.get(c.page_id) ?? [];
      list.push({ heading: c.heading, text: c.text });
      chunks.set(c.page_id, list);
    }
    return pages.map((p) => ({ ...p, chunks: chunks.get(p.id) ?? [] }));
  } finally {
    db.close();
  }
}

/** The pages robots.txt keeps the crawler from, through the workers' pipeline. */
function excludedPages(site: DocSite, counter: TokenCounter): PageRow[] {
  const out: PageRow[] = [];
  for (const path of site.robotsExcluded) {
    const mount = site.mounts.find((m) => path.startsWith(m.prefix));
    if (!mount) continue;
    let html = readFileSync(join(mount.dir, path.slice(mount.prefix.length)), "utf8");
    if (mount.rewrite) html = html.replaceAll(mount.rewrite.from, mount.rewrite.to);
    const url = `http://${site.host}${path}`;
    const page = processPage(new TextEncoder().encode(html), url, {
      headers: { "content-type": "text/html; charset=utf-8" },
      chunk: (markdown, title) =>
        chunkMarkdown(markdown, counter, { title }).map((c) => ({
          index: c.index,
          heading: c.heading,
          text: c.text,
          tokens: c.tokens,
        })),
    });
    out.push({
      url,
      type: page.facets.type,
      title: page.doc.title,
      markdown: page.doc.markdown,
      chunks: page.chunks,
    });
  }
  return out;
}

function texts(pages: readonly PageRow[], counter: TokenCounter, cuts: Cut[]): Text[] {
  const out: Text[] = [];
  for (const page of pages) {
    const decision = vectorDecision({
      url: page.url,
      type: page.type,
      chunks: page.chunks.length,
      shape: markdownShape(page.markdown),
    });
    const listing = page.type === "listing";
    const indexPath = indexLikePath(page.url);
    let cut = 0;
    page.chunks.forEach((chunk, i) => {
      const text = embeddingText(chunk, page.title);
      const pieces = Math.min(MODEL_MAX_TOKENS, counter.count(text) + 2);
      const withoutUrls = counter.count(text.replace(LINK_URL, "$1"));
      const policySkips = i >= decision.vectors;
      if (policySkips) cut += pieces;
      out.push({
        url: page.url,
        pageKey: page.url,
        pieces,
        urlPieces: Math.max(0, counter.count(text) - withoutUrls),
        hash: Bun.hash(text),
        textHash: Bun.hash(chunk.text),
        policySkips,
        linkList: linkListChunk(chunk.text),
        listing,
        indexPath,
      });
    });
    if (decision.reason !== null)
      cuts.push({
        url: page.url,
        type: page.type,
        chunks: page.chunks.length,
        vectors: decision.vectors,
        pieces_cut: cut,
        reason: decision.reason,
      });
  }
  return out;
}

/** A chunk whose lines are mostly short link entries holding most of its words (the page
 * policy's structure test, on one chunk). */
function linkListChunk(text: string): boolean {
  const s = markdownShape(text);
  return (
    s.linkEntries >= 3 && s.linkEntries >= 0.6 * s.contentLines && s.linkEntryWords >= 0.5 * s.words
  );
}

/** Padding share when each group of texts is sorted by length and cut into batches of `size`. */
function padding(groups: readonly (readonly number[])[], size: number): number {
  let real = 0;
  let padded = 0;
  for (const group of groups) {
    const sorted = group.toSorted((a, b) => b - a);
    for (let i = 0; i < sorted.length; i += size) {
      const batch = sorted.slice(i, i + size);
      padded += (batch[0] ?? 0) * batch.length;
      for (const n of batch) real += n;
    }
  }
  return padded > 0 ? 1 - real / padded : 0;
}

const pct = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;

function levers(name: string, all: readonly Text[], cost: ((n: number) => number) | null) {
  const seen = new Set<number | bigint>();
  const seenText = new Set<number | bigint>();
  let textRepeats = 0;
  let pieces = 0;
  let repeatPieces = 0;
  let repeatChunks = 0;
  let urlPieces = 0;
  let beyond = 0;
  let listingPieces = 0;
  let listingChunks = 0;
  let pathPieces = 0;
  let pathChunks = 0;
  let policyPieces = 0;
  let policyChunks = 0;
  let listChunks = 0;
  let listPieces = 0;
  let listTime = 0;
  let t = 0;
  const tShare = { repeats: 0, policy: 0, beyond128: 0, urls: 0, path: 0, left: 0, left128: 0 };
  for (const x of all) {
    const c = cost ? cost(x.pieces) : 0;
    pieces += x.pieces;
    t += c;
    const repeat = seen.has(x.hash);
    if (repeat) {
      repeatPieces += x.pieces;
      repeatChunks++;
      tShare.repeats += c;
    } else seen.add(x.hash);
    if (seenText.has(x.textHash)) textRepeats++;
    else seenText.add(x.textHash);
    urlPieces += Math.min(x.urlPieces, x.pieces - 2);
    if (cost) tShare.urls += c - cost(Math.max(2, x.pieces - x.urlPieces));
    beyond += Math.max(0, x.pieces - TRAINED);
    if (cost) tShare.beyond128 += c - cost(Math.min(x.pieces, TRAINED));
    if (x.listing) {
      listingPieces += x.pieces;
      listingChunks++;
    }
    if (x.indexPath) {
      pathPieces += x.pieces;
      pathChunks++;
      tShare.path += c;
    }
    if (x.policySkips) {
      policyPieces += x.pieces;
      policyChunks++;
      tShare.policy += c;
    }
    if (x.linkList) {
      listChunks++;
      listPieces += x.pieces;
      listTime += c;
    }
    // All three together: each distinct text once, the policy's cuts, link URLs out of the text.
    if (cost && !x.policySkips && !repeat) {
      const stripped = Math.max(2, x.pieces - x.urlPieces);
      tShare.left += cost(stripped);
      tShare.left128 += cost(Math.min(TRAINED, stripped));
    }
  }
  const lengths = all.map((x) => x.pieces);
  const rounds: number[][] = [];
  for (let i = 0; i < lengths.length; i += ROUND) rounds.push(lengths.slice(i, i + ROUND));
  const pages = new Set(all.map((x) => x.pageKey)).size;
  return {
    site: name,
    pages,
    chunks: all.length,
    word_pieces: pieces,
    mean_pieces: Math.round(pieces / Math.max(1, all.length)),
    "repeat texts % chunks": pct(repeatChunks, all.length),
    "repeat texts % pieces": pct(repeatPieces, pieces),
    "repeat chunk text alone % chunks": pct(textRepeats, all.length),
    "index-like URL path % chunks": pct(pathChunks, all.length),
    "index-like URL path % pieces": pct(pathPieces, pieces),
    "type listing % chunks": pct(listingChunks, all.length),
    "type listing % pieces": pct(listingPieces, pieces),
    "vector policy cuts % chunks": pct(policyChunks, all.length),
    "vector policy cuts % pieces": pct(policyPieces, pieces),
    "link-list chunks (per chunk) % chunks": pct(listChunks, all.length),
    "link-list chunks (per chunk) % pieces": pct(listPieces, pieces),
    "link URLs % pieces": pct(urlPieces, pieces),
    "beyond 128 % pieces": pct(beyond, pieces),
    "texts over 128 %": pct(lengths.filter((n) => n > TRAINED).length, all.length),
    "padding % b2/b4/b8 in rounds of 64": [2, 4, 8].map((b) => pct(padding(rounds, b), 1)),
    "padding % b2/b4/b8 whole crawl": [2, 4, 8].map((b) => pct(padding([lengths], b), 1)),
    ...(cost
      ? {
          "est. model time s (1 lane)": Math.round(t / 1000),
          "time % repeats": pct(tShare.repeats, t),
          "time % index-like URL path": pct(tShare.path, t),
          "time % vector policy cuts": pct(tShare.policy, t),
          "time % link-list chunks": pct(listTime, t),
          "time % link URLs": pct(tShare.urls, t),
          "time % beyond 128": pct(tShare.beyond128, t),
          "time % left after dedup + policy + URLs out": pct(tShare.left, t),
          "… and truncated at 128": pct(tShare.left128, t),
        }
      : {}),
  };
}

/** A text of exactly `pieces` word pieces with [CLS]/[SEP], from real prose. */
function textOf(pieces: number, counter: TokenCounter, source: string): string {
  const words = source.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let n = 2;
  for (const w of words) {
    const c = counter.countPiece(w);
    if (n + c > pieces) break;
    out.push(w);
    n += c;
  }
  while (n < pieces) {
    out.push("the");
    n++;
  }
  const text = out.join(" ");
  if (counter.count(text) + 2 !== pieces) throw new Error(`text of ${pieces} pieces is off`);
  return text;
}

async function measureCost(counter: TokenCounter, source: string, runs: number) {
  const embedder = await loadEmbedder({ batchSize: 1, threads: 1 });
  const inputs = LENGTHS.map((n) => textOf(n, counter, source));
  for (const text of inputs) for (let i = 0; i < 3; i++) await embedder.embedPassages([text]);
  const times = LENGTHS.map(() => [] as number[]);
  for (let r = 0; r < runs; r++)
    for (const [i, text] of inputs.entries()) {
      const t0 = performance.now();
      await embedder.embedPassages([text]);
      times[i]?.push(performance.now() - t0);
    }
  const rows = LENGTHS.map((n, i) => {
    const ts = times[i] ?? [];
    const med = median(ts);
    return {
      pieces: n,
      ms_median: Math.round(med * 100) / 100,
      ms_min: Math.round(Math.min(...ts) * 100) / 100,
      us_per_piece: Math.round((med / n) * 1000),
    };
  });
  const points = rows.map((r) => [r.pieces, r.ms_min] as const);
  /** Linear between the measured lengths (min of runs: the busy machine's noise left out). */
  const cost = (n: number): number => {
    const [x0, y0] = points[0] ?? [32, 1];
    if (n <= x0) return (y0 * n) / x0;
    for (let i = 1; i < points.length; i++) {
      const [x1, y1] = points[i] ?? [0, 0];
      const [xa, ya] = points[i - 1] ?? [0, 0];
      if (n <= x1) return ya + ((y1 - ya) * (n - xa)) / (x1 - xa);
    }
    return points.at(-1)?.[1] ?? 0;
  };
  return { rows, cost };
}

const counter = loadTokenCounter();
const sites = (values.sites ?? "").split(",").filter(Boolean);
const given = new Map(
  (values.data ?? "")
    .split(",")
    .filter(Boolean)
    .map((kv) => kv.split("=") as [string, string]),
);
const docs = docSites();
const work = mkdtempSync(join(tmpdir(), "wc-levers-"));
const dirs = new Map<string, string>();
try {
  const missing = sites.filter((s) => !given.has(s));
  if (missing.length > 0) {
    const server = await startDocServer();
    try {
      for (const s of missing) {
        const dir = join(work, s);
        crawl(s, dir, server.connectTo);
        dirs.set(s, dir);
      }
    } finally {
      server.stop();
    }
  }
  for (const [s, d] of given) dirs.set(s, d);

  const corpora: { name: string; pages: PageRow[] }[] = [];
  for (const s of sites) {
    const dir = dirs.get(s);
    if (!dir) continue;
    const pages = readPages(dir);
    corpora.push({ name: s, pages });
    if (s === "python")
      corpora.push({
        name: "python+genindex",
        pages: [...pages, ...excludedPages(docs.python, counter)],
      });
  }

  let cost: ((n: number) => number) | null = null;
  if (!values["no-cost"]) {
    const source = corpora
      .flatMap((c) => c.pages)
      .find((p) => p.url.endsWith("/tutorial/controlflow.html"))?.markdown;
    const measured = await measureCost(
      counter,
      source ?? readPages(dirs.values().next().value ?? "")[0]?.markdown ?? "",
      Math.max(3, Number(values.runs)),
    );
    cost = measured.cost;
    console.log(
      JSON.stringify({ cost_per_run: "one lane, batch 1, int8 passage graph", runs: values.runs }),
    );
    for (const row of measured.rows) console.log(JSON.stringify(row));
  }

  for (const { name, pages } of corpora) {
    const cuts: Cut[] = [];
    const all = texts(pages, counter, cuts);
    console.log(JSON.stringify(levers(name, all, cost)));
    const cutPieces = cuts.reduce((n, c) => n + c.pieces_cut, 0);
    console.log(
      JSON.stringify({
        site: name,
        "policy: pages cut": cuts.length,
        "chunks cut": cuts.reduce((n, c) => n + c.chunks - c.vectors, 0),
        "pieces cut": cutPieces,
      }),
    );
    if (values.pages)
      for (const c of cuts.toSorted((a, b) => b.pieces_cut - a.pieces_cut))
        console.log(JSON.stringify({ site: name, ...c }));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
