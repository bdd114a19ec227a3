/**
 * Two exports of the model, graph by graph, on the 40 texts of test/fixtures/embedding/texts.json
 * (one text per run, the session options of src/search/embedder.ts): the cosine and the largest
 * difference between their vectors, and each one's cosine to the PyTorch fp32 vectors
 * (reference-fp32.f32). For a change to the export that should not move the vectors.
 *
 *     bun test/eval/embedding/compare-graphs.ts OLD_DIR NEW_DIR
 *
 * Each DIR holds model.onnx, model-precise.onnx, weights.bin and the tokenizer files (an export's
 * OUT_DIR, or data/models/all-minilm-l6-v2). Every text runs on both graphs here, the short ones
 * on the int8 graph too (the embedder sends those to the precise graph).
 */
import { EmbeddingModel, FlagEmbedding } from "fastembed";
import { MODEL_DIM, MODEL_MAX_TOKENS } from "../../../src/search/model-files.ts";

const FIXTURES = new URL("../../fixtures/embedding/", import.meta.url).pathname;
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

function open(dir: string, file: string, approximateGelu: boolean): Promise<FlagEmbedding> {
  const optimization: Record<string, string> = {
    disable_specified_optimizers: "SkipLayerNormFusion",
  };
  if (approximateGelu) optimization.enable_gelu_approximation = "1";
  return FlagEmbedding.init({
    model: EmbeddingModel.CUSTOM,
    modelAbsoluteDirPath: dir,
    modelName: file,
    maxLength: MODEL_MAX_TOKENS,
    pooling: "mean",
    prefixes: { query: "", passage: "" },
    sessionOptions: {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      extra: { optimization, session: { "intra_op.allow_spinning": "1" } },
    },
  });
}

const [oldDir, newDir] = process.argv.slice(2);
if (oldDir === undefined || newDir === undefined) {
  console.error("usage: bun test/eval/embedding/compare-graphs.ts OLD_DIR NEW_DIR");
  process.exit(2);
}
const texts: string[] = await Bun.file(`${FIXTURES}texts.json`).json();
const flat = new Float32Array(await Bun.file(`${FIXTURES}reference-fp32.f32`).arrayBuffer());
const reference = texts.map((_, i) => flat.subarray(i * MODEL_DIM, (i + 1) * MODEL_DIM));
const min = (xs: number[]) => Math.min(...xs).toFixed(6);
const mean = (xs: number[]) => (xs.reduce((s, x) => s + x, 0) / xs.length).toFixed(6);

// tanh GELU on the int8 graph, as the embedder runs it.
for (const [file, approximateGelu] of [
  ["model.onnx", true],
  ["model-precise.onnx", false],
] as const) {
  const before = await open(oldDir, file, approximateGelu);
  const after = await open(newDir, file, approximateGelu);
  const between: number[] = [];
  const oldRef: number[] = [];
  const newRef: number[] = [];
  let maxDiff = 0;
  for (const [i, text] of texts.entries()) {
    const [a] = await before.embedBatch([text]);
    const [b] = await after.embedBatch([text]);
    const ref = reference[i];
    if (a === undefined || b === undefined || ref === undefined) throw new Error("no vector");
    between.push(dot(a, b));
    oldRef.push(dot(a, ref));
    newRef.push(dot(b, ref));
    for (const [k, x] of a.entries()) maxDiff = Math.max(maxDiff, Math.abs(x - (b[k] ?? 0)));
  }
  console.log(
    `${file}: old vs new cosine min ${min(between)}, max |diff| ${maxDiff.toExponential(2)}; ` +
      `to PyTorch fp32 min / mean: old ${min(oldRef)} / ${mean(oldRef)}, new ${min(newRef)} / ${mean(newRef)}`,
  );
}
