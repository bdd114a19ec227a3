/**
 * The crawl worker pool: Bun Workers (one per core by default) that fetch and process pages.
 * The pool owns concurrency and the workers' lives: a task goes to the least busy worker; the
 * workers pace their requests through the scheduler's HostThrottle; a worker that crashes, or
 * hangs past the processing timeout, is replaced. Its page lands in `fetchError` with the reason;
 * the other pages it was working on are retried once on another worker.
 */

import type { Config } from "../config.ts";
import { workerUrl } from "../worker-url.ts";
import type { FetchMeta, FromWorker, PageTask, ToWorker } from "./messages.ts";
import type { FetchOutcome } from "./outcome.ts";
import type { Pacer } from "./politeness.ts";
import type { ProcessedPage } from "./process-page.ts";
import type { RenderCandidate } from "./render/detector.ts";

export type PageTaskResult =
  | {
      readonly kind: "done";
      readonly fetch: FetchMeta;
      readonly outcome: FetchOutcome;
      readonly page: ProcessedPage | null;
      /** A page to render (its static body and signals), when the task asked. */
      readonly render?: RenderCandidate;
    }
  /** The page could not be processed (its worker died or hung on it, or processing threw). */
  | { readonly kind: "failed"; readonly reason: string; readonly fetch: FetchMeta | null };

interface Pending {
  readonly task: PageTask;
  readonly resolve: (result: PageTaskResult) => void;
  attempts: number;
  fetchedStatus: number | null;
  timer: ReturnType<typeof setTimeout> | null;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  readonly tasks: Map<number, Pending>;
  readonly releases: Map<number, () => void>;
  dead: boolean;
}

export interface PoolOptions {
  readonly size: number;
  readonly pacer: Pacer;
  /** Extra trusted CA certificates (tests with self-signed TLS sites). */
  readonly ca?: readonly string[];
}

const WORKER_URL = workerUrl("crawl/crawl-worker.ts");

export class CrawlPool {
  readonly #config: Config;
  readonly #options: PoolOptions;
  readonly #slots: Slot[] = [];
  #nextId = 1;
  #closed = false;
  /** Workers replaced so far (crashes and hangs), for the job view and tests. */
  replaced = 0;

  constructor(config: Config, options: PoolOptions) {
    this.#config = config;
    this.#options = options;
    for (let i = 0; i < Math.max(1, options.size); i++) this.#slots.push(this.#spawn());
  }

  get size(): number {
    return this.#slots.length;
  }

  /** Tasks in flight on every worker. */
  get inFlight(): number {
    return this.#slots.reduce((n, s) => n + s.tasks.size, 0);
  }

  /** Fetches and processes one page; never rejects. */
  run(task: Omit<PageTask, "id">): Promise<PageTaskResult> {
    if (this.#closed)
      return Promise.resolve({ kind: "failed", reason: "the crawl workers stopped", fetch: null });
    const { promise, resolve } = Promise.withResolvers<PageTaskResult>();
    const pending: Pending = {
      task: { ...task, id: this.#nextId++ },
      resolve,
      attempts: 0,
      fetchedStatus: null,
      timer: null,
    };
    this.#dispatch(pending);
    return promise;
  }

  /** Workers of the pool, for tests that kill one. */
  workers(): readonly Worker[] {
    return this.#slots.map((s) => s.worker);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const slot of this.#slots) {
      slot.dead = true;
      for (const p of slot.tasks.values())
        this.#settle(slot, p, { kind: "failed", reason: "the crawl workers stopped", fetch: null });
      for (const release of slot.releases.values()) release();
      slot.worker.terminate();
    }
  }

  #spawn(): Slot {
    const worker = new Worker(WORKER_URL);
    const { promise: ready, resolve } = Promise.withResolvers<void>();
    const slot: Slot = { worker, ready, tasks: new Map(), releases: new Map(), dead: false };
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      if (event.data.type === "ready") resolve();
      else this.#receive(slot, event.data);
    };
    worker.onerror = (event) =>
      this.#lost(slot, `the worker crashed: ${event.message || "unknown error"}`);
    worker.addEventListener("close", () => {
      if (!slot.dead && !this.#closed) this.#lost(slot, "the worker exited");
    });
    const init: ToWorker = {
      type: "init",
      config: this.#config,
      ...(this.#options.ca ? { ca: this.#options.ca } : {}),
    };
    worker.postMessage(init);
    return slot;
  }

  #dispatch(pending: Pending): void {
    pending.attempts++;
    let best: Slot | undefined;
    for (const slot of this.#slots)
      if (!slot.dead && (!best || slot.tasks.size < best.tasks.size)) best = slot;
    if (!best) {
      pending.resolve({ kind: "failed", reason: "no crawl worker is running", fetch: null });
      return;
    }
    const slot = best;
    slot.tasks.set(pending.task.id, pending);
    pending.fetchedStatus = null;
    // Until the page is fetched the fetcher's own timeouts bound the wait; this catches a worker
    // that stopped answering altogether.
    const c = this.#config;
    const fetchBound =
      (c.connectTimeoutS + c.readTimeoutS + c.maxRetryAfterS + 5) * (c.maxRetries + 1) * 1000;
    this.#arm(slot, pending, fetchBound, "did not fetch in time");
    void slot.ready.then(() => {
      if (!slot.dead)
        slot.worker.postMessage({ type: "page", task: pending.task } satisfies ToWorker);
    });
  }

  #arm(slot: Slot, pending: Pending, ms: number, what: string): void {
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = setTimeout(() => this.#hung(slot, pending, what), ms);
  }

  #receive(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case "acquire":
        void this.#options.pacer.acquire(message.host).then((release) => {
          if (slot.dead) return release();
          slot.releases.set(message.ticket, release);
          slot.worker.postMessage({ type: "granted", ticket: message.ticket } satisfies ToWorker);
        });
        return;
      case "release":
        slot.releases.get(message.ticket)?.();
        slot.releases.delete(message.ticket);
        return;
      case "record":
        this.#options.pacer.record(
          message.host,
          message.elapsedMs,
          message.status,
          message.retryAfterS,
        );
        return;
      case "fetched": {
        const pending = slot.tasks.get(message.id);
        if (!pending) return;
        pending.fetchedStatus = message.status;
        this.#arm(
          slot,
          pending,
          this.#config.processingTimeoutS * 1000,
          `processing ran past ${this.#config.processingTimeoutS} s`,
        );
        return;
      }
      case "done": {
        const pending = slot.tasks.get(message.id);
        if (pending)
          this.#settle(slot, pending, {
            kind: "done",
            fetch: message.fetch,
            outcome: message.outcome,
            page: message.page,
            ...(message.render ? { render: message.render } : {}),
          });
        return;
      }
      case "failed": {
        const pending = slot.tasks.get(message.id);
        if (pending)
          this.#settle(slot, pending, {
            kind: "failed",
            reason: `processing failed: ${message.error}`,
            fetch: null,
          });
        return;
      }
      case "ready":
        return;
    }
  }

  #settle(slot: Slot, pending: Pending, result: PageTaskResult): void {
    if (pending.timer) clearTimeout(pending.timer);
    slot.tasks.delete(pending.task.id);
    pending.resolve(result);
  }

  /** A task outlived its bound: the worker is replaced, the task fails, its siblings retry. */
  #hung(slot: Slot, pending: Pending, what: string): void {
    if (slot.dead) return;
    this.#settle(slot, pending, {
      kind: "failed",
      reason: `the page ${what}; its worker was replaced`,
      fetch: null,
    });
    this.#lost(slot, "its worker was replaced after another page hung it");
  }

  #lost(slot: Slot, reason: string): void {
    if (slot.dead) return;
    slot.dead = true;
    for (const release of slot.releases.values()) release();
    slot.releases.clear();
    slot.worker.terminate();
    const orphans = [...slot.tasks.values()];
    slot.tasks.clear();
    if (!this.#closed) {
      const index = this.#slots.indexOf(slot);
      this.#slots[index] = this.#spawn();
      this.replaced++;
    }
    for (const p of orphans) {
      if (p.timer) clearTimeout(p.timer);
      // A page that was on a worker that died is retried once; twice, it is the page's doing.
      if (p.attempts < 2 && !this.#closed) this.#dispatch(p);
      else p.resolve({ kind: "failed", reason: `${reason} (twice on this page)`, fetch: null });
    }
  }
}
