/**
 * The search evaluation's corpus: docs.python.org, the PostgreSQL 15 docs and the Debian
 * Administrator's Handbook in the languages the judged queries use (as the reference's
 * eval/search/evaluate.py: the handbook is served with only those books, the other languages are
 * not served), crawled by the real service (`bun src/cli.ts serve`, embeddings on) through its HTTP
 * API into a data dir that persists for later runs. Each crawl is timed, and the job's embedding
 * backlog sampled as it drains (the embedding stage's chunks/s behind a real crawl).
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { serveDocSites } from "../../sites/support/doc-server.ts";
import {
  type DocSite,
  type DocSites,
  docSites,
  type GeneratedFile,
  HANDBOOK_HOST,
} from "../../sites/support/doc-sites.ts";
import { handbookHome, robotsTxt, sitemapIndex } from "../../sites/support/site-files.ts";
import { createKey, type Settings, startService } from "./service.ts";

export const REPO = resolve(import.meta.dir, "../../..");
export const EVAL_DIR = join(REPO, ".cache", "search-eval");
export const DEFAULT_DATA = join(EVAL_DIR, "data");
export const MANIFEST = "corpus.json";
/** The reference's budgets: every page of each site fits. */
export const BUDGETS: Readonly<Record<string, number>> = {
  "docs.python.org": 2000,
  "www.postgresql.org": 2000,
  [HANDBOOK_HOST]: 2000,
};
/** The handbook books the reference crawled (the queries' languages are added to them). */
export const HANDBOOK_LANGS = ["de-DE", "es-ES", "fr-FR", "ja-JP"];

export interface Query {
  readonly id: string;
  readonly query: string;
  readonly site: string;
  readonly relevant: Readonly<Record<string, number>>;
  readonly split: "tune" | "holdout";
}

export function loadQueries(path = join(import.meta.dir, "queries.jsonl")): Query[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Query);
}

/** The handbook languages the judged pages are in (`/browse/<lang>/...`). */
export function handbookLanguages(queries: readonly Query[]): string[] {
  const langs = new Set<string>();
  for (const q of queries) {
    if (q.site !== HANDBOOK_HOST) continue;
    for (const p of Object.keys(q.relevant)) {
      if (p.startsWith("/browse/")) langs.add(p.split("/")[2] ?? "");
    }
  }
  langs.delete("");
  return [...langs].sort();
}

/**
 * The handbook with only `langs`: their books, a home page listing them, robots.txt and the
 * sitemaps of those books. The other books are not served (404), as in the reference's tree.
 */
export function restrictedHandbook(full: DocSite, langs: readonly string[]): DocSite {
  const keep = (path: string) => path === "/" || langs.includes(path.split("/")[2] ?? "");
  const dated = (body: string, like: GeneratedFile): GeneratedFile => ({
    body: new TextEncoder().encode(body),
    type: like.type,
    mtimeMs: like.mtimeMs,
  });
  const home = full.generated.get("/index.html") as GeneratedFile;
  const generated = new Map<string, GeneratedFile>();
  generated.set("/index.html", dated(handbookHome(langs), home));
  const children = ["/sitemaps/home.xml", ...langs.map((l) => `/sitemaps/${l}.xml`)];
  for (const child of children) {
    const file = full.generated.get(child);
    if (file) generated.set(child, file);
  }
  const xml = { ...home, type: "text/xml" };
  generated.set("/sitemap.xml", dated(sitemapIndex(full.host, children), xml));
  const robots = { ...home, type: "text/plain" };
  generated.set("/robots.txt", dated(robotsTxt(full.host, full.robotsDisallow), robots));
  const pages = full.pages.filter(keep);
  return {
    ...full,
    redirects: {},
    mounts: full.mounts.filter((m) => keep(m.prefix)),
    generated,
    pages,
    sitemaps: ["/sitemap.xml", ...children],
    robotsExcluded: [],
    allowedPages: pages,
    languages: [...langs],
  };
}

export function evalSites(queries: readonly Query[]): DocSites {
  const sites = docSites();
  const langs = [...new Set([...HANDBOOK_LANGS, ...handbookLanguages(queries)])].sort();
  const handbook = restrictedHandbook(sites.handbook, langs);
  return { ...sites, handbook, all: [sites.python, sites.postgres, handbook] };
}

interface JobView {
  id: string;
  domain: string;
  state: string;
  progress: {
    indexed: number;
    pending: number;
    discovered: number;
    embedding_backlog: number | null;
  };
}

const FINAL = new Set(["completed", "partial", "failed", "cancelled"]);

export interface CrawlRecord {
  readonly domain: string;
  readonly state: string;
  readonly indexed: number;
  readonly chunks: number;
  /** POST to the job's final state (every chunk embedded). */
  readonly seconds: number;
  /** POST to the last page stored (the fetch and processing side of the crawl). */
  readonly pagesSeconds: number;
  /** Chunks embedded per second over the whole job, while pages came in, and after. */
  readonly embedPerS: { whole: number; duringCrawl: number; drain: number };
  readonly drainChunks: number;
  readonly loadAverage: number[];
}

export interface CorpusStats {
  readonly domains: Record<string, { pages: number; chunks: number; tokens: number }>;
  readonly pages: number;
  readonly chunks: number;
  readonly embedded: number;
}

export interface Manifest {
  readonly languages: string[];
  readonly settings: Settings;
  readonly crawls: CrawlRecord[];
  readonly crawlSeconds: number;
  readonly stats: CorpusStats;
  readonly builtAt: string;
}

export function readManifest(dataDir: string): Manifest | null {
  const path = join(dataDir, MANIFEST);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Manifest) : null;
}

export function corpusStats(dataDir: string): CorpusStats {
  const db = new Database(join(dataDir, "webcorpus.db"), { readonly: true });
  try {
    const domains: CorpusStats["domains"] = {};
    for (const row of db
      .query<{ domain: string; n: number }, []>(
        "SELECT domain, count(*) AS n FROM pages GROUP BY domain",
      )
      .all()) {
      domains[row.domain] = { pages: row.n, chunks: 0, tokens: 0 };
    }
    for (const row of db
      .query<{ domain: string; n: number; tokens: number }, []>(
        "SELECT p.domain, count(*) AS n, coalesce(sum(c.tokens), 0) AS tokens FROM chunks c " +
          "JOIN pages p ON p.id = c.page_id GROUP BY p.domain",
      )
      .all()) {
      const d = domains[row.domain] ?? { pages: 0, chunks: 0, tokens: 0 };
      domains[row.domain] = { ...d, chunks: row.n, tokens: row.tokens };
    }
    const totals = db
      .query<{ n: number; e: number }, []>(
        "SELECT count(*) AS n, coalesce(sum(embedded), 0) AS e FROM chunks",
      )
      .get() ?? { n: 0, e: 0 };
    const pages = Object.values(domains).reduce((n, d) => n + d.pages, 0);
    return { domains, pages, chunks: totals.n, embedded: totals.e };
  } finally {
    db.close();
  }
}

/** Chunks of a job and how many of them have vectors (read-only, beside the service). */
function jobChunks(db: Database, jobId: string): { chunks: number; embedded: number } {
  return (
    db
      .query<{ chunks: number; embedded: number }, [string]>(
        "SELECT count(*) AS chunks, coalesce(sum(embedded), 0) AS embedded FROM chunks WHERE job_id = ?",
      )
      .get(jobId) ?? { chunks: 0, embedded: 0 }
  );
}

const rate = (n: number, s: number) => (s > 0 ? Math.round((n / s) * 10) / 10 : 0);

/**
 * Crawls `budgets` one domain after the other into `dataDir` with the real service and writes
 * the manifest. The sites are served on loopback from the unpacked Debian packages.
 */
export async function buildCorpus(
  dataDir: string,
  sites: DocSites,
  budgets: Readonly<Record<string, number>>,
  settings: Settings,
  log: (line: string) => void = console.log,
): Promise<Manifest> {
  mkdirSync(dataDir, { recursive: true });
  const server = serveDocSites(sites, { record: false });
  const all: Settings = {
    CONNECT_TO: server.connectTo(),
    CONNECT_TO_ONLY: "true",
    CRAWL_DELAY_S: "0",
    ADAPTIVE_DELAY: "false",
    HOST_CONCURRENCY: "16",
    MAX_CONCURRENCY: "16",
    EMBEDDINGS: "true",
    ...settings,
  };
  const key = await createKey(dataDir, `eval-${Date.now()}`);
  const service = await startService(dataDir, all);
  const db = new Database(join(dataDir, "webcorpus.db"), { readonly: true });
  const crawls: CrawlRecord[] = [];
  const t0 = performance.now();
  try {
    for (const [domain, budget] of Object.entries(budgets)) {
      const started = performance.now();
      const { job_id } = await service.post<{ job_id: string }>(
        "/api/crawl",
        { domain, budget },
        key,
      );
      let view: JobView;
      let lastIndexed = -1;
      let pagesAt = 0;
      let embeddedAtPages = 0;
      let lastLog = 0;
      for (;;) {
        await Bun.sleep(1000);
        view = await service.json<JobView>(`/api/jobs/${job_id}`);
        const now = (performance.now() - started) / 1000;
        const counts = jobChunks(db, job_id);
        if (view.progress.indexed !== lastIndexed || view.progress.pending > 0) {
          lastIndexed = view.progress.indexed;
          pagesAt = now;
          embeddedAtPages = counts.embedded;
        }
        if (now - lastLog >= 30 || FINAL.has(view.state)) {
          lastLog = now;
          log(
            `  ${domain}: ${view.state} ${view.progress.indexed} pages, ${counts.embedded}/${counts.chunks} chunks embedded, ${now.toFixed(0)} s (load ${loadavg()[0]?.toFixed(1)})`,
          );
        }
        if (FINAL.has(view.state)) break;
      }
      const seconds = (performance.now() - started) / 1000;
      const { chunks, embedded } = jobChunks(db, job_id);
      crawls.push({
        domain,
        state: view.state,
        indexed: view.progress.indexed,
        chunks,
        seconds: Math.round(seconds * 10) / 10,
        pagesSeconds: Math.round(pagesAt * 10) / 10,
        embedPerS: {
          whole: rate(embedded, seconds),
          duringCrawl: rate(embeddedAtPages, pagesAt),
          drain: rate(embedded - embeddedAtPages, seconds - pagesAt),
        },
        drainChunks: embedded - embeddedAtPages,
        loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
      });
    }
  } finally {
    db.close();
    await service.stop();
    await server.stop();
  }
  const manifest: Manifest = {
    languages: sites.handbook.languages.slice(),
    settings: Object.fromEntries(Object.entries(all).filter(([k]) => k !== "CONNECT_TO")),
    crawls,
    crawlSeconds: Math.round((performance.now() - t0) / 100) / 10,
    stats: corpusStats(dataDir),
    builtAt: new Date().toISOString(),
  };
  writeFileSync(join(dataDir, MANIFEST), JSON.stringify(manifest, null, 1));
  return manifest;
}
