/**
 * Where the embedding model's files are: the graphs and tokenizer shipped in the repository
 * (data/models/all-minilm-l6-v2, provenance in data/models/README.md), or a directory of the same
 * name under `WEBCORPUS_MODEL_DIR` that overrides them (e.g. with an fp32 graph, `model-fp32.onnx`).
 *
 * Variant int8: `model.onnx` (int8 compute) for passages, `model-precise.onnx` (fp32 compute on the
 * same int8 weights, shared through `weights.bin`) for queries and short passages. Variant fp32:
 * `model-fp32.onnx` for everything.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createTokenCounter, type TokenCounter, vocabularyOf } from "./word-pieces.ts";

export const MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2";
export const MODEL_DIM = 384;
/** Word pieces the model reads, [CLS] and [SEP] included (sentence-transformers' max_seq_length). */
export const MODEL_MAX_TOKENS = 256;
const SUBDIR = "all-minilm-l6-v2";

/**
 * Texts per ONNX run, measured by test/bench/embedding.ts on 2 cores (300 Python-docs chunks,
 * rounds interleaved with the reference's embedder): one text per run does the most work per
 * CPU-second (no padding at all): two lanes 42.9-43.1 chunks per CPU-second and 81.6-82.6 chunks/s,
 * against 39.1-39.4 and 68.6-73.2 in batches of 2 and 31.4 / 37.4 in batches of 16. And a text's
 * vector no longer depends on its batchmates (int8 activations are quantized per run).
 */
export const DEFAULT_BATCH_SIZE = 1;

/** The shipped model directory (absolute): in the source tree. */
export const MODEL_DIR = new URL(`../../data/models/${SUBDIR}`, import.meta.url).pathname;

/** Beside the single executable (src/build-binary.ts copies the model to `<dist>/models`). */
const BESIDE_EXECUTABLE = join(dirname(process.execPath), "models", SUBDIR);

export type EmbedVariant = "int8" | "fp32";

export interface ModelFiles {
  readonly dir: string;
  /** The graph for passages. */
  readonly model: string;
  /** The graph for queries and short passages (the same file for fp32). */
  readonly precise: string;
  readonly tokenizer: string;
  readonly variant: EmbedVariant;
}

/** The files for `variant`: under `modelDir` when it holds them, else the shipped ones. */
export function modelFiles(modelDir: string | null, variant: EmbedVariant = "int8"): ModelFiles {
  const name = variant === "int8" ? "model.onnx" : "model-fp32.onnx";
  const dirs = [...(modelDir ? [join(modelDir, SUBDIR)] : []), MODEL_DIR, BESIDE_EXECUTABLE];
  const dir = dirs.find((d) => existsSync(join(d, name)));
  if (dir === undefined) {
    throw new Error(
      `embedding model ${name} not found in ${dirs.join(" or ")}` +
        (variant === "fp32" ? " (export it with test/eval/embedding/export-model.ts --fp32)" : ""),
    );
  }
  const precise = variant === "int8" ? "model-precise.onnx" : name;
  return {
    dir,
    model: join(dir, name),
    precise: join(dir, precise),
    tokenizer: join(dir, "tokenizer.json"),
    variant,
  };
}

/** A word-piece counter over the vocabulary of the tokenizer in `dir` (the shipped one by default). */
export function loadTokenCounter(dir: string = MODEL_DIR): TokenCounter {
  const json: unknown = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
  return createTokenCounter(vocabularyOf(json));
}
