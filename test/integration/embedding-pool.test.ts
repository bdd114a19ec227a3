import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingRequest, EmbeddingResponse } from "../../src/search/embedding-messages.ts";
import { EmbeddingPool } from "../../src/search/embedding-pool.ts";

const FIXTURES = new URL("../fixtures/embedding/", import.meta.url).pathname;
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

// Loading the model and running 40+ texts: seconds on a busy 2-core machine (bunfig.toml's
// [test] timeout is not applied by Bun 1.4.5; the default is 5 s).
setDefaultTimeout(60_000);

let pool: EmbeddingPool;
let texts: string[];

beforeAll(async () => {
  pool = await EmbeddingPool.start({ lanes: 2 });
  texts = await Bun.file(`${FIXTURES}texts.json`).json();
});

afterAll(async () => {
  await pool.close();
});

/** An embedding worker spoken to directly: its protocol, without the pool. */
function embeddingWorker() {
  const worker = new Worker(new URL("../../src/search/embedding-worker.ts", import.meta.url).href);
  const inbox: EmbeddingResponse[] = [];
  let wake: (() => void) | null = null;
  worker.onmessage = (event: MessageEvent<EmbeddingResponse>) => {
    inbox.push(event.data);
    wake?.();
  };
  const send = (message: EmbeddingRequest) => worker.postMessage(message);
  const receive = async (): Promise<EmbeddingResponse> => {
    while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return inbox.shift() as EmbeddingResponse;
  };
  return { worker, send, receive };
}

describe("EmbeddingPool (real Workers)", () => {
  test("two lanes: vectors in order, as close to PyTorch fp32 as one embedder, lane-independent", async () => {
    const flat = new Float32Array(await Bun.file(`${FIXTURES}reference-fp32.f32`).arrayBuffer());
    // Each lane's self-check passed: passages on the int8 graph.
    expect(pool.checks.map((c) => c?.passagesOn)).toEqual(["int8", "int8"]);
    const vectors = await pool.embedPassages(texts);
    expect(vectors.length).toBe(texts.length);
    for (const [i, v] of vectors.entries()) {
      expect(v.length).toBe(384);
      expect(dot(v, flat.subarray(i * 384, (i + 1) * 384))).toBeGreaterThanOrEqual(0.99);
    }
    // The same batches whichever lane runs them: one lane gives the same numbers.
    const single = await EmbeddingPool.start({ lanes: 1 });
    try {
      const again = await single.embedPassages(texts);
      for (const [i, v] of vectors.entries())
        expect(dot(v, again[i] as Float32Array)).toBeGreaterThan(0.99999);
    } finally {
      await single.close();
    }
  });

  test("a query answered while passages are under way", async () => {
    const passages = pool.embedPassages(texts);
    const query = await pool.embedQuery("how do I install python on debian");
    expect(query.length).toBe(384);
    expect(Math.abs(dot(query, query) - 1)).toBeLessThan(1e-5);
    const vectors = await passages;
    const scores = vectors.map((v) => dot(v, query));
    const best = scores.indexOf(Math.max(...scores));
    expect(texts[best]).toMatch(/Debian|debian/);
    expect(await pool.embedPassages([])).toEqual([]);
  });

  test("queries have their own lane: never behind queued passages, the same vectors", async () => {
    expect(pool.queryLane).toBe(true);
    // One passage lane with 80 texts queued: a query asked after them comes back first.
    const one = await EmbeddingPool.start({ lanes: 1 });
    try {
      let passagesDone = false;
      const passages = one
        .embedPassages(Array.from({ length: 80 }, (_, i) => texts[i % texts.length] as string))
        .then((vectors) => {
          passagesDone = true;
          return vectors;
        });
      const query = await one.embedQuery("how do I install python on debian");
      // The query went to its own lane: it was answered while the 80 passages (~1 s of work,
      // against ~6 ms for a query) were still being embedded on the other.
      expect(passagesDone).toBe(false);
      expect((await passages).length).toBe(80);
      // Without a query lane, a passage lane answers queries: the same vector, from the same graph.
      const shared = await EmbeddingPool.start({ lanes: 1, queryLane: false });
      try {
        expect(shared.queryLane).toBe(false);
        for (const text of ["how do I install python on debian", "ok", texts[3] as string]) {
          const a = await one.embedQuery(text);
          const b = await shared.embedQuery(text);
          expect(dot(a, b)).toBeGreaterThanOrEqual(0.9999);
          expect(a).toEqual(b);
        }
        expect(dot(query, await shared.embedQuery("how do I install python on debian"))).toBe(
          dot(query, query),
        );
      } finally {
        await shared.close();
      }
    } finally {
      await one.close();
    }
  });

  test("a missing model fails the start with the reason, and leaves no worker behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "embed-"));
    try {
      const start = EmbeddingPool.start({ lanes: 1, modelDir: dir, variant: "fp32" });
      expect(start).rejects.toThrow(/model-fp32\.onnx not found/);
      await start.catch(() => undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the worker protocol: error before init, ready, flat vectors by request id", async () => {
    const { worker, send, receive } = embeddingWorker();
    try {
      send({ type: "embed", id: 7, kind: "passages", texts: ["too early"] });
      expect(await receive()).toEqual({ type: "error", id: 7, message: "embed before init" });
      send({
        type: "init",
        settings: { modelDir: null, variant: "int8", batchSize: 1, threads: 1 },
      });
      const ready = await receive();
      if (ready.type !== "ready" || ready.check === null) throw new Error("no self-check");
      expect([ready.model, ready.dim, ready.check.passagesOn]).toEqual([
        "sentence-transformers/all-MiniLM-L6-v2",
        384,
        "int8",
      ]);
      expect(ready.check.cosine).toBeGreaterThanOrEqual(0.996);
      send({ type: "embed", id: 1, kind: "passages", texts: ["first text", "second text"] });
      send({ type: "embed", id: 2, kind: "query", texts: ["a query"] });
      const first = await receive();
      const second = await receive();
      if (first.type !== "vectors" || second.type !== "vectors") throw new Error("no vectors");
      expect([first.id, first.vectors.length, second.id, second.vectors.length]).toEqual([
        1, 768, 2, 384,
      ]);
      send({ type: "close" });
      expect(await receive()).toEqual({ type: "closed" });
    } finally {
      worker.terminate();
    }
  });

  test("the query lane's worker: the query graph alone, passages refused", async () => {
    const { worker, send, receive } = embeddingWorker();
    try {
      send({
        type: "init",
        settings: { modelDir: null, variant: "int8", batchSize: 1, threads: 1, queriesOnly: true },
      });
      expect(await receive()).toEqual({
        type: "ready",
        model: "sentence-transformers/all-MiniLM-L6-v2",
        dim: 384,
        check: null,
      });
      send({ type: "embed", id: 1, kind: "passages", texts: ["a passage"] });
      expect(await receive()).toEqual({
        type: "error",
        id: 1,
        message: "passages sent to the query lane",
      });
      send({ type: "embed", id: 2, kind: "query", texts: ["a query"] });
      const answer = await receive();
      expect(answer.type === "vectors" ? [answer.id, answer.vectors.length] : answer).toEqual([
        2, 384,
      ]);
    } finally {
      worker.terminate();
    }
  });
});
