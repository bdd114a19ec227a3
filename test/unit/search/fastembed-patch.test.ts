/**
 * What patches/fastembed@2.1.0.patch changes in fastembed's FlagEmbedding, on the shipped graphs:
 * masked mean pooling and L2 normalisation, padding per batch, prefixes only where a model wants
 * them, the inputs the graph declares, `embedBatch`.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { EmbeddingModel, FlagEmbedding } from "fastembed";
import { MODEL_DIM, MODEL_DIR } from "../../../src/search/model-files.ts";

setDefaultTimeout(60_000);

const FIXTURES = new URL("../../fixtures/embedding/", import.meta.url).pathname;
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

const open = (modelName: string, pooling?: "mean" | "cls") =>
  FlagEmbedding.init({
    model: EmbeddingModel.CUSTOM,
    modelAbsoluteDirPath: MODEL_DIR,
    modelName,
    maxLength: 256,
    ...(pooling ? { pooling } : {}),
  });

let texts: string[];
let reference: Float32Array[];

beforeAll(async () => {
  texts = await Bun.file(`${FIXTURES}texts.json`).json();
  const flat = new Float32Array(await Bun.file(`${FIXTURES}reference-fp32.f32`).arrayBuffer());
  reference = texts.map((_, i) => flat.subarray(i * MODEL_DIM, (i + 1) * MODEL_DIM));
});

describe("patched fastembed", () => {
  test("mean pooling gives sentence-transformers' vectors; the first token's vector does not", async () => {
    const mean = await open("model-precise.onnx", "mean");
    const cls = await open("model-precise.onnx"); // a custom model keeps fastembed's CLS default
    expect([mean.pooling, cls.pooling]).toEqual(["mean", "cls"]);
    const some = texts.slice(0, 8);
    const [byMean, byCls] = [await mean.embedBatch(some), await cls.embedBatch(some)];
    for (const [i, v] of byMean.entries()) {
      expect(Math.abs(dot(v, v) - 1)).toBeLessThan(1e-5);
      expect(dot(v, reference[i] as Float32Array)).toBeGreaterThan(0.99);
      expect(dot(byCls[i] as Float32Array, reference[i] as Float32Array)).toBeLessThan(0.6);
    }
  });

  test("each batch padded to its own longest text: batchmates do not change a vector", async () => {
    const model = await open("model-precise.onnx", "mean"); // fp32 compute: exact up to rounding
    const [short, long] = ["ok", texts[0] as string];
    const [together] = await model.embedBatch([short, long]);
    const [alone] = await model.embedBatch([short]);
    expect(dot(together as Float32Array, alone as Float32Array)).toBeGreaterThan(0.99999);
  });

  test("no prefixes for this model: passages, queries and embedBatch agree", async () => {
    const model = await open("model-precise.onnx", "mean");
    expect(model.prefixes).toEqual({ query: "", passage: "" });
    const batches: Float32Array[][] = [];
    for await (const batch of model.passageEmbed(texts.slice(0, 3), 2)) batches.push(batch);
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    const direct = await model.embedBatch(texts.slice(0, 3));
    for (const [i, v] of batches.flat().entries()) {
      expect(dot(v, direct[i] as Float32Array)).toBeGreaterThan(0.99999);
    }
    const query = await model.queryEmbed(texts[0] as string);
    expect(dot(query, direct[0] as Float32Array)).toBeGreaterThan(0.99999);
    expect(await model.embedBatch([])).toEqual([]);
  });

  test("a graph without token_type_ids is fed only the inputs it declares", async () => {
    const model = await open("model.onnx", "mean");
    const [vector] = await model.embedBatch(["webcorpus hybrid search"]);
    expect(vector?.length).toBe(MODEL_DIM);
  });
});
