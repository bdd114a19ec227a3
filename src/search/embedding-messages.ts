/**
 * The messages between an `EmbeddingPool` and its Workers (`embedding-worker.ts`). Vectors travel
 * as one flat Float32Array per request (n x 384), its buffer transferred, not copied.
 */
import type { GraphCheck } from "./graph-check.ts";
import type { EmbedVariant } from "./model-files.ts";

export interface EmbeddingWorkerSettings {
  readonly modelDir: string | null;
  readonly variant: EmbedVariant;
  readonly batchSize: number;
  /** onnxruntime intra-op threads per session (1: the lane uses one core). */
  readonly threads: number;
  /** The pool's query lane: the query graph alone, passages refused. */
  readonly queriesOnly?: boolean;
}

export type EmbeddingRequest =
  | { readonly type: "init"; readonly settings: EmbeddingWorkerSettings }
  | {
      readonly type: "embed";
      readonly id: number;
      readonly kind: "passages" | "query";
      readonly texts: readonly string[];
    }
  | { readonly type: "close" };

export type EmbeddingResponse =
  | {
      readonly type: "ready";
      readonly model: string;
      readonly dim: number;
      /** The passage embedder's self-check; null on the query lane and for variant fp32. */
      readonly check: GraphCheck | null;
    }
  | { readonly type: "vectors"; readonly id: number; readonly vectors: Float32Array }
  | { readonly type: "error"; readonly id: number | null; readonly message: string }
  | { readonly type: "closed" };
