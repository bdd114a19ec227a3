/**
 * Embedding lanes: one Worker per lane (`embedding-worker.ts`), each with single-threaded
 * onnxruntime sessions, so embedding never runs on the thread that serves HTTP and lanes use
 * cores side by side. A call's texts are cut into batches that lanes take as they come free
 * (longest texts first, so that no lane is left alone with a long batch at the end; length in
 * characters here, the main thread has no tokenizer).
 *
 * Queries have a lane of their own (a Worker holding the query graph alone, +53-99 MB RSS): on a
 * passage lane a query waited for the passage run under way (onnxruntime's run blocks the
 * Worker): with 120 passages queued on 2 passage lanes, query p50 / p95 22 / 47 ms without it,
 * 12 / 26 ms with it (load average 4 on 2 cores; 51 / 229 against 25 / 46 at load 7;
 * test/bench/query-embedding.ts). Its runs share the cores with the passage lanes under the OS
 * scheduler instead. The hop itself costs 0.14 ms p50: a query's time is the precise graph's run.
 */
import { workerUrl } from "../worker-url.ts";
import type {
  EmbeddingRequest,
  EmbeddingResponse,
  EmbeddingWorkerSettings,
} from "./embedding-messages.ts";
import type { GraphCheck } from "./graph-check.ts";
import { DEFAULT_BATCH_SIZE, MODEL_DIM } from "./model-files.ts";

export interface EmbeddingPoolOptions
  extends Partial<Omit<EmbeddingWorkerSettings, "queriesOnly">> {
  /** Workers for passages; each uses one core while it embeds. */
  readonly lanes?: number;
  /** A Worker for queries alone (default true); without it queries go to the least busy lane. */
  readonly queryLane?: boolean;
}

interface Pending {
  readonly resolve: (vectors: Float32Array) => void;
  readonly reject: (error: Error) => void;
}

class Lane {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #ready: Promise<void>;
  #closed: (() => void) | null = null;
  #failure: Error | null = null;
  #check: GraphCheck | null = null;

  constructor(settings: EmbeddingWorkerSettings) {
    this.#worker = new Worker(workerUrl("search/embedding-worker.ts"));
    let started: (() => void) | null = null;
    let failed: ((error: Error) => void) | null = null;
    this.#ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    this.#worker.onmessage = (event: MessageEvent<EmbeddingResponse>) => {
      const message = event.data;
      switch (message.type) {
        case "ready":
          this.#check = message.check;
          started?.();
          return;
        case "vectors":
          this.#settle(message.id)?.resolve(message.vectors);
          return;
        case "error": {
          const error = new Error(`embedding worker: ${message.message}`);
          if (message.id === null) failed?.(error);
          else this.#settle(message.id)?.reject(error);
          return;
        }
        case "closed":
          this.#closed?.();
          return;
      }
    };
    this.#worker.onerror = (event: ErrorEvent) =>
      this.#fail(new Error(`embedding worker: ${event.message}`), failed);
    this.#send({ type: "init", settings });
  }

  get ready(): Promise<void> {
    return this.#ready;
  }

  /** Its embedder's self-check, once ready (null on the query lane). */
  get check(): GraphCheck | null {
    return this.#check;
  }

  /** The worker died (or the lane was closed): every request is refused. */
  get failed(): boolean {
    return this.#failure !== null;
  }

  /** In-flight requests: the pool gives a query to the least busy lane. */
  get load(): number {
    return this.#pending.size;
  }

  embed(kind: "passages" | "query", texts: readonly string[]): Promise<Float32Array> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise<Float32Array>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ type: "embed", id, kind, texts });
    });
  }

  /** Finish what was asked, then stop the worker. */
  async close(): Promise<void> {
    if (!this.#failure) {
      const closed = new Promise<void>((resolve) => {
        this.#closed = resolve;
      });
      this.#send({ type: "close" });
      await closed;
    }
    this.#failure ??= new Error("embedding worker: closed");
    this.#worker.terminate();
  }

  #send(message: EmbeddingRequest): void {
    this.#worker.postMessage(message);
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    return pending;
  }

  #fail(error: Error, failed: ((error: Error) => void) | null): void {
    this.#failure = error;
    failed?.(error);
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    this.#closed?.();
  }
}

export class EmbeddingPool {
  readonly dim = MODEL_DIM;
  readonly #lanes: Lane[];
  readonly #queryLane: Lane | null;
  readonly #batchSize: number;

  private constructor(lanes: Lane[], queryLane: Lane | null, batchSize: number) {
    this.#lanes = lanes;
    this.#queryLane = queryLane;
    this.#batchSize = batchSize;
  }

  /** Starts the lanes and waits until every one has its model loaded. */
  static async start(options: EmbeddingPoolOptions = {}): Promise<EmbeddingPool> {
    const {
      lanes = 1,
      modelDir = null,
      variant = "int8",
      batchSize = DEFAULT_BATCH_SIZE,
      threads = 1,
      queryLane = true,
    } = options;
    if (!Number.isInteger(lanes) || lanes < 1) throw new Error(`embedding lanes: ${lanes}`);
    const settings: EmbeddingWorkerSettings = { modelDir, variant, batchSize, threads };
    // One lane after the other: Workers loading the same native module at once race in Bun
    // 1.4.5 ("symbol 'napi_register_module_v1' not found", 1 start in ~5 with two lanes).
    const started: Lane[] = [];
    try {
      const wanted: EmbeddingWorkerSettings[] = Array.from({ length: lanes }, () => settings);
      if (queryLane) wanted.push({ ...settings, queriesOnly: true });
      for (const laneSettings of wanted) {
        const lane = new Lane(laneSettings);
        started.push(lane);
        await lane.ready;
      }
    } catch (error) {
      await Promise.allSettled(started.map((lane) => lane.close()));
      throw error;
    }
    const passages = started.slice(0, lanes);
    return new EmbeddingPool(passages, started[lanes] ?? null, batchSize);
  }

  get lanes(): number {
    return this.#lanes.length;
  }

  /** Each passage lane's load-time self-check (`graph-check.ts`), in lane order; null for
   * variant fp32. */
  get checks(): readonly (GraphCheck | null)[] {
    return this.#lanes.map((lane) => lane.check);
  }

  /** Unit vectors of `texts`, in order. */
  async embedPassages(texts: readonly string[]): Promise<Float32Array[]> {
    const order = texts.map((_, i) => i);
    order.sort((a, b) => (texts[b]?.length ?? 0) - (texts[a]?.length ?? 0) || a - b);
    const batches: number[][] = [];
    for (let start = 0; start < order.length; start += this.#batchSize) {
      batches.push(order.slice(start, start + this.#batchSize));
    }
    const out: Float32Array[] = new Array(texts.length);
    let next = 0;
    const work = async (lane: Lane) => {
      for (let batch = batches[next++]; batch !== undefined; batch = batches[next++]) {
        const flat = await lane.embed(
          "passages",
          batch.map((i) => texts[i] ?? ""),
        );
        batch.forEach((i, k) => {
          out[i] = flat.subarray(k * this.dim, (k + 1) * this.dim);
        });
      }
    };
    await Promise.all(this.#lanes.map(work));
    return out;
  }

  /** Whether queries have their own lane. */
  get queryLane(): boolean {
    return this.#queryLane !== null;
  }

  /** The unit vector of one query: from the query lane, else (none, or its worker died) from
   * the least busy passage lane. */
  async embedQuery(text: string): Promise<Float32Array> {
    const lane =
      this.#queryLane && !this.#queryLane.failed
        ? this.#queryLane
        : this.#lanes.reduce((best, l) => (l.load < best.load ? l : best));
    return lane.embed("query", [text]);
  }

  async close(): Promise<void> {
    const all = this.#queryLane ? [...this.#lanes, this.#queryLane] : this.#lanes;
    await Promise.all(all.map((lane) => lane.close()));
  }
}
