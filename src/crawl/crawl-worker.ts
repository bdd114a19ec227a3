/**
 * A crawl worker thread: fetches pages (SSRF-guarded, paced by the scheduler's per-host
 * throttle over messages) and processes them (extract, facets, chunks) off the thread that
 * serves HTTP. One worker runs many fetches at once; processing is synchronous CPU work.
 */
import { gcAndSweep, noFTL } from "bun:jsc";
import { Tokenizer } from "htmlparser2";
import { type Config, disableProxies } from "../config.ts";
import { chunkMarkdown } from "../search/chunking.ts";
import { loadTokenCounter, modelFiles } from "../search/model-files.ts";
import { Fetcher, fetcherOptions } from "./fetcher.ts";
import {
  type FetchMeta,
  type FromWorker,
  KEPT_HEADERS,
  type PageTask,
  type ToWorker,
} from "./messages.ts";
import { type FetchOutcome, fetchOutcome } from "./outcome.ts";
import type { Pacer } from "./politeness.ts";
import { type Chunker, processBody, processPage } from "./process-page.ts";
import { renderCandidate } from "./render/detector.ts";

declare const self: Worker;

const post = (message: FromWorker) => self.postMessage(message);

/** The scheduler's throttle, asked over messages: every worker paces against the same hosts. */
class RemotePacer implements Pacer {
  #next = 1;
  readonly #waiting = new Map<number, () => void>();

  acquire(host: string): Promise<() => void> {
    const ticket = this.#next++;
    const { promise, resolve } = Promise.withResolvers<() => void>();
    this.#waiting.set(ticket, () => resolve(() => post({ type: "release", ticket })));
    post({ type: "acquire", ticket, host });
    return promise;
  }

  granted(ticket: number): void {
    this.#waiting.get(ticket)?.();
    this.#waiting.delete(ticket);
  }

  record(host: string, elapsedMs: number, status: number, retryAfterS?: number | null): void {
    post({ type: "record", host, elapsedMs, status, retryAfterS: retryAfterS ?? null });
  }
}

// htmlparser2's tokenizer loop (inside linkedom's parse) is the largest function a worker
// compiles. JSC's top tier (FTL) compiled it 3-4 times over a fresh worker's first 250-500
// Python-docs pages, 120-225 ms each, as rarely taken paths kept invalidating it; its second tier
// (DFG) compiles it in ~1.5 ms, once. Kept at DFG, a fresh worker spent ~0.7 CPU ms a page less
// on the Python docs (4 paired runs of 250 pages) and no more on 1,100 PostgreSQL or 1,650
// handbook pages.
// `parse` is private in the typings, a plain method at run time.
noFTL((Tokenizer.prototype as unknown as { parse: () => void }).parse);

const pacer = new RemotePacer();
let fetcher: Fetcher | null = null;
let chunker: Chunker | undefined;
let vectorPolicy = true;

/**
 * Pages processed between two full collections of this worker's heap. JSC sizes its heaps for
 * the machine's RAM and lets each page's garbage (DOM, text, tokens) pile up: a full Debian
 * handbook crawl (3,374 pages, 2 workers, 24 GB machine) peaked at 997-1,137 MB RSS without
 * this (6 runs), 876-916 MB with a full GC every 30 pages (every 20: 873-940; every 40: 900-970).
 * The collections cost ~1-2.5 CPU ms per page (GC helper threads; the shared cores make it
 * noisy), out of ~20 (test/bench/crawl-bench.ts --site handbook --budget 5000).
 *
 * The collection is bun:jsc's `gcAndSweep()`, not `Bun.gc(true)`: Bun's also deletes every
 * function's bytecode (and the source caches), which every later call then rebuilds. On a cold
 * worker's first 500 Python-docs pages that cost ~1.6 CPU ms a page more for the same peak RSS.
 */
const PAGES_PER_GC = 30;
let sinceGc = 0;

async function runPage(task: PageTask): Promise<void> {
  if (!fetcher) throw new Error("worker not initialised");
  if (task.rendered) {
    const { html, fetch } = task.rendered;
    post({ type: "fetched", id: task.id, status: fetch.status });
    const page = processPage(new TextEncoder().encode(html), task.url, {
      headers: { ...fetch.headers, "content-type": "text/html; charset=utf-8" },
      sitemapLastmod: task.sitemapLastmod,
      ...(chunker ? { chunk: chunker } : {}),
      vectorPolicy,
    });
    const outcome = { kind: "page", status: fetch.status } as const;
    post({ type: "done", id: task.id, fetch, outcome, page });
    return;
  }
  const result = await fetcher.fetch(task.url, {
    etag: task.etag,
    lastModified: task.lastModified,
  });
  post({ type: "fetched", id: task.id, status: result.status });
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = result.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  const meta: FetchMeta = {
    status: result.status,
    elapsedMs: result.elapsedMs,
    attempts: result.attempts,
    error: result.error,
    headers,
  };
  const outcome = fetchOutcome(result);
  if (outcome.kind !== "page") {
    post({ type: "done", id: task.id, fetch: meta, outcome, page: null });
    return;
  }
  const options = {
    headers,
    sitemapLastmod: task.sitemapLastmod,
    ...(chunker ? { chunk: chunker } : {}),
    vectorPolicy,
  };
  const page = await processBody(result.body, task.url, options);
  if ("error" in page) {
    // A document that cannot be read is one entry of the error bucket, with the reason.
    const booked: FetchOutcome = {
      kind: "booked",
      bucket: "fetchError",
      reason: page.error,
      status: meta.status,
    };
    post({ type: "done", id: task.id, fetch: meta, outcome: booked, page: null });
    return;
  }
  const render =
    task.render && !page.doc.pdf ? renderCandidate(task.render, result.body, page.doc.words) : null;
  post({ type: "done", id: task.id, fetch: meta, outcome, page, ...(render ? { render } : {}) });
  if (++sinceGc >= PAGES_PER_GC) {
    sinceGc = 0;
    gcAndSweep();
  }
}

function init(config: Config, ca?: readonly string[]): void {
  disableProxies();
  // The model's own word pieces size the chunks (loaded once per worker).
  const counter = loadTokenCounter(modelFiles(config.modelDir, config.embedVariant).dir);
  chunker = (markdown, title) => chunkMarkdown(markdown, counter, { title });
  vectorPolicy = config.indexPageVectors === "policy";
  fetcher = new Fetcher(fetcherOptions(config, { pacer, ...(ca ? { ca } : {}) }));
  post({ type: "ready" });
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case "init":
      init(message.config, message.ca);
      return;
    case "granted":
      pacer.granted(message.ticket);
      return;
    case "page":
      runPage(message.task).catch((err: unknown) => {
        post({
          type: "failed",
          id: message.task.id,
          error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
        });
      });
      return;
  }
};
