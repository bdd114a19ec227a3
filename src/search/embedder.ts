/**
 * Sentence embeddings with all-MiniLM-L6-v2 through fastembed (patched: masked mean pooling, L2
 * normalisation, padding per batch, no prefixes, `embedBatch`; see patches/ and
 * docs/design-notes.md), on onnxruntime-node's CPU provider, from the model files shipped in the
 * repository.
 *
 * Two graphs share one set of int8 weights: passages run on the int8-compute graph (2-3x faster);
 * queries and passages under `PRECISE_BELOW_TOKENS` run on the fp32-compute graph, because int8
 * activations are quantized per run and a text of a few tokens has no others to average its error
 * out (cosine to PyTorch fp32: 0.975-0.98 for "ok" or "?" in int8, >= 0.994 on the precise graph).
 *
 * onnxruntime-node's `session.run` blocks its thread for the whole run, so one embedder uses one
 * core: parallelism comes from several embedders in their own Workers (`EmbeddingPool`), each with
 * single-threaded sessions, as the reference found best beside the crawl's CPU work.
 *
 * At load, a self-check (graph-check.ts) compares the two graphs on a fixed passage; if the int8
 * graph disagrees (a CPU whose int8 kernels are wrong), every passage goes to the precise graph.
 */
import { EmbeddingModel, FlagEmbedding } from "fastembed";
import { checkGraphs, type GraphCheck, MIN_CHECK_COSINE } from "./graph-check.ts";
import {
  DEFAULT_BATCH_SIZE,
  type EmbedVariant,
  loadTokenCounter,
  MODEL_DIM,
  MODEL_MAX_TOKENS,
  MODEL_NAME,
  modelFiles,
} from "./model-files.ts";

/** Passages of fewer word pieces ([CLS] and [SEP] included) go through the precise graph. */
export const PRECISE_BELOW_TOKENS = 32;

/**
 * Graph fusions left out: onnxruntime fuses each residual Add and LayerNormalization into its
 * SkipLayerNormalization kernel, slower than the two ops on AVX2 CPUs (reference embedder.py).
 */
const UNFUSED = "SkipLayerNormFusion";

export interface EmbedderOptions {
  /** `WEBCORPUS_MODEL_DIR` (a directory holding `all-minilm-l6-v2/`), or null: the shipped files. */
  readonly modelDir?: string | null;
  readonly variant?: EmbedVariant;
  readonly batchSize?: number;
  /** onnxruntime intra-op threads per session (1: one core per embedder). */
  readonly threads?: number;
  /** The self-check's minimum cosine between the two graphs (`MIN_CHECK_COSINE`). */
  readonly minCheckCosine?: number;
}

export interface QueryEmbedder {
  readonly name: string;
  readonly dim: number;
  readonly variant: EmbedVariant;
  /** The unit vector of one query (no prefix: all-MiniLM-L6-v2 embeds queries as passages). */
  embedQuery(text: string): Promise<Float32Array>;
}

export interface Embedder extends QueryEmbedder {
  /** Unit vectors (384-d) of `texts`, in order; batches of similar length, `batchSize` each. */
  embedPassages(texts: readonly string[]): Promise<Float32Array[]>;
  /** The load-time self-check of the int8 graph; null for variant fp32 (one graph). */
  readonly check: GraphCheck | null;
}

async function openModel(dir: string, file: string, threads: number, approximateGelu: boolean) {
  const optimization: Record<string, string> = { disable_specified_optimizers: UNFUSED };
  if (approximateGelu) optimization.enable_gelu_approximation = "1";
  return FlagEmbedding.init({
    model: EmbeddingModel.CUSTOM,
    modelAbsoluteDirPath: dir,
    modelName: file.slice(dir.length + 1),
    maxLength: MODEL_MAX_TOKENS,
    pooling: "mean",
    prefixes: { query: "", passage: "" },
    sessionOptions: {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: "sequential",
      extra: {
        optimization,
        session: { "intra_op.allow_spinning": threads > 1 ? "0" : "1" },
      },
    },
  });
}

/** One query on the precise graph: one run, the text alone (no padding), no prefix. */
function queryEmbedding(precise: FlagEmbedding): (text: string) => Promise<Float32Array> {
  return async (text) => {
    const [vector] = await precise.embedBatch([text]);
    if (vector === undefined) throw new Error("the model returned no vector");
    return vector;
  };
}

/**
 * Queries only: the precise graph alone (the one `loadEmbedder` runs queries on, same options),
 * so its vectors are the full embedder's. For the pool's query lane, which then never waits
 * behind a passage batch (test/bench/query-embedding.ts).
 */
export async function loadQueryEmbedder(
  options: Omit<EmbedderOptions, "batchSize"> = {},
): Promise<QueryEmbedder> {
  const { modelDir = null, variant = "int8", threads = 1 } = options;
  const files = modelFiles(modelDir, variant);
  const precise = await openModel(files.dir, files.precise, threads, false);
  return { name: MODEL_NAME, dim: MODEL_DIM, variant, embedQuery: queryEmbedding(precise) };
}

export async function loadEmbedder(options: EmbedderOptions = {}): Promise<Embedder> {
  const {
    modelDir = null,
    variant = "int8",
    batchSize = DEFAULT_BATCH_SIZE,
    threads = 1,
    minCheckCosine = MIN_CHECK_COSINE,
  } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batch size ${batchSize}`);
  const files = modelFiles(modelDir, variant);
  // tanh GELU on the int8 graph: cheaper, and within its error already (reference embedder.py).
  const fast = await openModel(files.dir, files.model, threads, variant === "int8");
  const precise =
    files.precise === files.model
      ? fast
      : await openModel(files.dir, files.precise, threads, false);
  const counter = loadTokenCounter(files.dir);
  const check =
    precise === fast
      ? null
      : await checkGraphs(queryEmbedding(fast), queryEmbedding(precise), minCheckCosine);
  const passages = check?.passagesOn === "precise" ? precise : fast;

  /** Vectors of texts[i] for i in `idx`, written to `out`; most word pieces first (so a batch
   * holds texts of similar length and pads little), `batchSize` a run. */
  const embedInto = async (
    model: FlagEmbedding,
    texts: readonly string[],
    idx: number[],
    tokens: readonly number[],
    out: Float32Array[],
  ) => {
    idx.sort((a, b) => (tokens[b] ?? 0) - (tokens[a] ?? 0) || a - b);
    for (let start = 0; start < idx.length; start += batchSize) {
      const batch = idx.slice(start, start + batchSize);
      const vectors = await model.embedBatch(batch.map((i) => texts[i] ?? ""));
      batch.forEach((i, k) => {
        out[i] = vectors[k] as Float32Array;
      });
    }
  };

  const embedPassages = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const out: Float32Array[] = new Array(texts.length);
    const tokens = texts.map((text) => Math.min(MODEL_MAX_TOKENS, counter.count(text) + 2));
    const long: number[] = [];
    const short: number[] = [];
    tokens.forEach((n, i) => {
      (precise !== passages && n < PRECISE_BELOW_TOKENS ? short : long).push(i);
    });
    await embedInto(passages, texts, long, tokens, out);
    await embedInto(precise, texts, short, tokens, out);
    return out;
  };

  return {
    name: MODEL_NAME,
    dim: MODEL_DIM,
    variant,
    embedPassages,
    embedQuery: queryEmbedding(precise),
    check,
  };
}
