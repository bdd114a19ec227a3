/**
 * The crash matrix: the real service (`webcorpus serve` in a child process) crawls the local
 * Python docs with embeddings on and is killed with SIGKILL at seeded points spread over the
 * crawl's life: while fetching, while embedding, in the middle of the shutdown snapshot (SIGTERM,
 * then SIGKILL a moment later), and while a shard rebuilds (its snapshot deleted before the
 * restart). It is restarted after each kill; the job resumes. At the end: the job accounts for
 * every URL in exactly one bucket, `webcorpus verify` finds the shards level with SQLite, and
 * every page is found by search with a word of its own.
 *
 * WEBCORPUS_CRASH_SEED picks other points (default 7); the points and what each found are printed.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tokens } from "../../src/search/tokenizer.ts";
import type { JobView } from "../../src/services/jobs-service.ts";
import { createKey, type Service, startService } from "../eval/search/service.ts";
import { tempDir } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { expectInvariant } from "../helpers/crawl.ts";
import { prng } from "../helpers/prng.ts";
import { type DocServer, serveDocSites } from "./support/doc-server.ts";
import { docSites, PYTHON_HOST } from "./support/doc-sites.ts";

setDefaultTimeout(15 * 60_000);

const SEED = Number(process.env.WEBCORPUS_CRASH_SEED ?? 7);
const POINTS = 20;
const BUDGET = 100;
/** The crawl starts at the docs host; pages, shards and filters go by its root domain. */
const START = PYTHON_HOST;
const DOMAIN = "python.org";
const KINDS = ["fetching", "embedding", "snapshot", "rebuild"] as const;
type Kind = (typeof KINDS)[number];
/** The first points fall while pages are fetched, the rest cycle through the other kinds. */
const kindOf = (point: number): Kind =>
  point <= 4 ? "fetching" : (KINDS[1 + ((point - 5) % 3)] as Kind);

let docs: DocServer;
let dataDir: string;
let settings: Record<string, string>;
beforeAll(() => {
  docs = serveDocSites(docSites());
  dataDir = tempDir();
  settings = {
    CONNECT_TO: docs.connectTo(),
    CONNECT_TO_ONLY: "true",
    // Slow enough that the first lives end while pages are still being fetched.
    CRAWL_DELAY_S: "0.2",
    HOST_CONCURRENCY: "2",
    EMBEDDINGS: "true",
    CRAWL_RATE_PER_MINUTE: "1000",
  };
});
afterAll(async () => {
  await docs?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const job = (svc: Service, id: string) => svc.json<JobView>(`/api/jobs/${id}`);

/** Waits (at most `ms`) until the job is in `phase` or final; returns what it saw last. */
async function until(svc: Service, id: string, phase: string, ms: number): Promise<JobView> {
  const deadline = Date.now() + ms;
  for (;;) {
    const view = await job(svc, id);
    if (view.progress.phase === phase || view.progress.phase === "done" || Date.now() > deadline)
      return view;
    await Bun.sleep(100);
  }
}

/** Waits (at most `ms`) until more chunks are embedded than `before`, or the job is done. */
async function progressed(svc: Service, id: string, before: number, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const view = await job(svc, id);
    const now = view.progress.embedded_chunks ?? 0;
    if (now > before || view.progress.phase === "done" || Date.now() > deadline) return view;
    await Bun.sleep(100);
  }
}

function kill(svc: Service): Promise<unknown> {
  process.kill(svc.pid, "SIGKILL");
  return svc.stop(); // returns once the process is gone
}

test("SIGKILL at twenty points of a crawl with embeddings on loses nothing", async () => {
  const key = await createKey(dataDir, "matrix");
  const random = prng(SEED);
  let svc = await startService(dataDir, settings);
  const { job_id: id } = await svc.post<{ job_id: string }>(
    "/api/crawl",
    { domain: START, budget: BUDGET },
    key,
  );
  const points: { point: number; kind: Kind; phase: string; indexed: number; embedded: number }[] =
    [];
  let embedded = 0;
  for (let point = 1; point <= POINTS; point++) {
    const kind = kindOf(point);
    // Embedding points wait for a batch of this life to be stored (the model loads first).
    const seen =
      kind === "fetching"
        ? await job(svc, id)
        : await progressed(svc, id, embedded, kind === "embedding" ? 15_000 : 4_000);
    embedded = seen.progress.embedded_chunks ?? embedded;
    await Bun.sleep(100 + Math.floor(random() * (kind === "fetching" ? 1500 : 800)));
    if (kind === "snapshot") {
      process.kill(svc.pid, "SIGTERM");
      await Bun.sleep(Math.floor(random() * 300));
    }
    await kill(svc);
    points.push({
      point,
      kind,
      phase: seen.progress.phase,
      indexed: seen.progress.indexed,
      embedded: seen.progress.embedded_chunks ?? 0,
    });
    if (kind === "rebuild") {
      // The shard lost while stopped: the next life rebuilds it from SQLite, and dies in it.
      const shards = join(dataDir, "shards");
      for (const f of readdirSync(shards).filter((f) => f.startsWith(`${DOMAIN}.`)))
        rmSync(join(shards, f));
      svc = await startService(dataDir, settings);
      await Bun.sleep(20 + Math.floor(random() * 300));
      await kill(svc);
    }
    svc = await startService(dataDir, settings);
  }
  console.table(points);

  const final = await until(svc, id, "done", 10 * 60_000);
  expect(final.progress.phase).toBe("done");
  expect(["completed", "partial"]).toContain(final.state);
  expectInvariant(final);
  expect(final.progress.indexed).toBeGreaterThan(BUDGET / 2);

  // Every page is found by a word only it has (in the chunks SQLite holds), with the shards as
  // the restarts left them.
  // Terms as the text index has them (tokens() folds and stems: "depended" is "depend", which
  // many pages have), so a word is a page's own only if its term is.
  const db = new Database(join(dataDir, "webcorpus.db"), { readonly: true });
  const chunks = db
    .query<{ page_id: string; heading: string; text: string; title: string | null }, [string]>(
      "SELECT c.page_id, c.heading, c.text, p.title FROM chunks c JOIN pages p ON p.id = c.page_id WHERE p.domain = ?",
    )
    .all(DOMAIN);
  db.close();
  const terms = new Map<string, Set<string>>();
  const candidates = new Map<string, Map<string, string>>(); // page -> term -> a word of it
  for (const chunk of chunks) {
    const own = terms.get(chunk.page_id) ?? new Set<string>();
    for (const t of tokens(`${chunk.title ?? ""} ${chunk.heading} ${chunk.text}`)) own.add(t);
    terms.set(chunk.page_id, own);
    const words = candidates.get(chunk.page_id) ?? new Map<string, string>();
    for (const word of chunk.text.match(/\b[a-z]{7,}\b/g) ?? []) {
      const [term] = tokens(word);
      if (term && !words.has(term)) words.set(term, word);
    }
    candidates.set(chunk.page_id, words);
  }
  const df = new Map<string, number>();
  for (const set of terms.values()) for (const t of set) df.set(t, (df.get(t) ?? 0) + 1);
  const words = new Map<string, string>();
  for (const [pageId, list] of candidates) {
    const own = [...list].find(([term]) => df.get(term) === 1);
    if (own) words.set(pageId, own[1]);
  }
  const missing: string[] = [];
  for (const [pageId, word] of words) {
    const hits = await svc.json<{ data: { page_id: string }[] }>("/api/search", {
      q: word,
      mode: "text",
      domain: DOMAIN,
      limit: 10,
    });
    if (!hits.data.some((h) => h.page_id === pageId)) missing.push(`${pageId} (${word})`);
  }
  console.log(
    `${final.progress.indexed} pages indexed; ${words.size} searched by a word of their own; missing: ${missing.length}`,
  );
  expect(words.size).toBeGreaterThan(terms.size / 2);
  expect(missing).toEqual([]);
  await svc.stop();

  const verify = await runCli(["verify"], { WEBCORPUS_DATA_DIR: dataDir });
  console.log(verify.stdout.trim());
  expect({ code: verify.code, stderr: verify.stderr }).toEqual({ code: 0, stderr: "" });
});
