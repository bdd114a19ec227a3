import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { type Embedder, loadEmbedder, loadQueryEmbedder } from "../../../src/search/embedder.ts";
import { MODEL_DIM } from "../../../src/search/model-files.ts";

const FIXTURES = new URL("../../fixtures/embedding/", import.meta.url).pathname;

// Loading the model and running 40+ texts: seconds on a busy 2-core machine (bunfig.toml's
// [test] timeout is not applied by Bun 1.4.5; the default is 5 s).
setDefaultTimeout(60_000);

let embedder: Embedder;
let texts: string[];
let reference: Float32Array[];

beforeAll(async () => {
  embedder = await loadEmbedder();
  texts = await Bun.file(`${FIXTURES}texts.json`).json();
  const flat = new Float32Array(await Bun.file(`${FIXTURES}reference-fp32.f32`).arrayBuffer());
  reference = texts.map((_, i) => flat.subarray(i * MODEL_DIM, (i + 1) * MODEL_DIM));
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

describe("embedder", () => {
  test("agrees with sentence-transformers' fp32 vectors (cosine >= 0.99) on 40 varied texts", async () => {
    // Docs prose, code, tables, eight languages, very short texts and texts past 256 word pieces.
    expect(texts.length).toBe(40);
    const vectors = await embedder.embedPassages(texts);
    const cosines = vectors.map((v, i) => dot(v, reference[i] as Float32Array));
    expect(Math.min(...cosines)).toBeGreaterThanOrEqual(0.99);
    // In batches of 2 (int8 activations are quantized per run, so batchmates move a vector).
    const paired = await (await loadEmbedder({ batchSize: 2 })).embedPassages(texts);
    const pairedCosines = paired.map((v, i) => dot(v, reference[i] as Float32Array));
    expect(Math.min(...pairedCosines)).toBeGreaterThanOrEqual(0.99);
    // As queries (the precise graph).
    for (const [i, text] of texts.entries()) {
      expect(
        dot(await embedder.embedQuery(text), reference[i] as Float32Array),
      ).toBeGreaterThanOrEqual(0.99);
    }
  });

  test("384-d unit vectors, in the order of the texts, none for no text", async () => {
    const vectors = await embedder.embedPassages([
      "hello world",
      "",
      "a much longer sentence ".repeat(200),
    ]);
    expect(vectors.map((v) => v.length)).toEqual([MODEL_DIM, MODEL_DIM, MODEL_DIM]);
    for (const v of vectors) expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-5);
    expect(await embedder.embedPassages([])).toEqual([]);
    const query = await embedder.embedQuery("hello world");
    expect(dot(query, vectors[0] as Float32Array)).toBeGreaterThan(0.98);
    expect(embedder.name).toBe("sentence-transformers/all-MiniLM-L6-v2");
    expect(embedder.dim).toBe(MODEL_DIM);
  });

  test("the query embedder (query graph alone) gives the full embedder's query vectors", async () => {
    const queries = await loadQueryEmbedder();
    expect([queries.name, queries.dim, queries.variant]).toEqual([
      embedder.name,
      embedder.dim,
      embedder.variant,
    ]);
    for (const text of ["how do I read a file line by line", "ok", ...texts.slice(0, 8)]) {
      const a = await queries.embedQuery(text);
      expect(dot(a, await embedder.embedQuery(text))).toBeGreaterThanOrEqual(0.9999);
      expect(a).toEqual(await embedder.embedQuery(text));
    }
  });

  test("batching and order barely move a vector", async () => {
    const some = texts.slice(0, 12);
    const forward = await embedder.embedPassages(some);
    const backward = (await embedder.embedPassages([...some].reverse())).reverse();
    for (const [i, v] of forward.entries()) {
      expect(dot(v, backward[i] as Float32Array)).toBeGreaterThan(0.98);
    }
  });

  test("reads at most 256 word pieces: what follows is ignored", async () => {
    const [a, b] = await embedder.embedPassages([
      `${"apple ".repeat(300)}${"zebra ".repeat(300)}`,
      `${"apple ".repeat(300)}${"quantum physics ".repeat(300)}`,
    ]);
    expect(dot(a as Float32Array, b as Float32Array)).toBeGreaterThan(0.9999);
  });

  test("semantics: each query finds its document", async () => {
    const docs = [
      "To install the package on Debian, run apt-get install python3.",
      "The quarterly revenue grew by twelve percent.",
      "Our cat sleeps on the sofa all afternoon.",
    ];
    const vectors = await embedder.embedPassages(docs);
    const queries = ["how do I set up python on linux", "financial results", "pets at home"];
    for (const [expected, query] of queries.entries()) {
      const q = await embedder.embedQuery(query);
      const scores = vectors.map((v) => dot(v, q));
      expect(scores.indexOf(Math.max(...scores))).toBe(expected);
    }
  });

  test("no prefix: a query and the same text as a passage are the same vector", async () => {
    const [passage] = await embedder.embedPassages(["webcorpus hybrid search"]);
    const query = await embedder.embedQuery("webcorpus hybrid search");
    expect(dot(passage as Float32Array, query)).toBeGreaterThan(0.9999);
  });
});
