/**
 * The facet model's data file: gzip of `[u32 LE header length][header JSON][weights]`.
 *
 * The header holds the vocabulary (tokens per feature group, in row order), each head's classes
 * and biases, and how the weights are stored: `int8` (one scale per column: weight = q * scale;
 * most weights sit near zero, so the file packs to ~80 KiB) or `f16` (the reference's float16
 * values exactly). Encoding and decoding are pure: the bytes come from and go to the caller.
 */
import { FacetModel, HEADS, type Head, type HeadWeights } from "./facet-model.ts";
import type { FeatureGroup } from "./model-features.ts";

export const MODEL_FORMAT = "webcorpus-facet-model";
export type Precision = "int8" | "f16";

interface Header {
  readonly format: typeof MODEL_FORMAT;
  readonly version: 1;
  readonly precision: Precision;
  /** Feature groups with their tokens, rows numbered in this order. */
  readonly groups: readonly (readonly [FeatureGroup, readonly string[]])[];
  readonly heads: Readonly<Record<Head, { classes: readonly string[]; bias: readonly number[] }>>;
  /** int8 only: one scale per column (the heads' classes side by side). */
  readonly scales?: readonly number[];
  /** Where the weights came from (free form, for people). */
  readonly source?: Readonly<Record<string, string>>;
}

export interface ModelParts {
  /** Rows in order: group and token. */
  readonly rows: readonly (readonly [FeatureGroup, string])[];
  readonly heads: Readonly<Record<Head, { classes: readonly string[]; bias: ArrayLike<number> }>>;
  /** `rows x width` row-major, the heads' classes side by side in HEADS order. */
  readonly weights: Float32Array;
}

function width(heads: ModelParts["heads"]): number {
  return HEADS.reduce((n, h) => n + heads[h].classes.length, 0);
}

export function encodeModel(
  parts: ModelParts,
  precision: Precision,
  source?: Record<string, string>,
): Uint8Array {
  const w = width(parts.heads);
  const groups: [FeatureGroup, string[]][] = [];
  for (const [g, token] of parts.rows) {
    const last = groups.at(-1);
    if (last && last[0] === g) last[1].push(token);
    else groups.push([g, [token]]);
  }
  if (new Set(groups.map(([g]) => g)).size !== groups.length) {
    throw new Error("encodeModel: rows of a group must be contiguous");
  }
  let body: Uint8Array;
  let scales: number[] | undefined;
  if (precision === "int8") {
    scales = Array.from({ length: w }, () => 0);
    for (let i = 0; i < parts.weights.length; i++) {
      const j = i % w;
      scales[j] = Math.max(scales[j] as number, Math.abs(parts.weights[i] as number) / 127);
    }
    const q = new Int8Array(parts.weights.length);
    for (let i = 0; i < q.length; i++) {
      const s = scales[i % w] as number;
      q[i] = s ? Math.round((parts.weights[i] as number) / s) : 0;
    }
    body = new Uint8Array(q.buffer);
  } else {
    body = new Uint8Array(Float16Array.from(parts.weights).buffer);
  }
  const head = (h: Head) => ({
    classes: [...parts.heads[h].classes],
    bias: Array.from(parts.heads[h].bias),
  });
  const heads = { type: head("type"), format: head("format"), audience: head("audience") };
  const header: Header = {
    format: MODEL_FORMAT,
    version: 1,
    precision,
    groups,
    heads,
    scales,
    source,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(4 + json.length + body.length);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  out.set(body, 4 + json.length);
  return Bun.gzipSync(out, { level: 9 });
}

export function decodeModel(file: Uint8Array): FacetModel {
  const raw = Bun.gunzipSync(new Uint8Array(file));
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const len = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(raw.subarray(4, 4 + len))) as Header;
  if (header.format !== MODEL_FORMAT || header.version !== 1) {
    throw new Error(`not a ${MODEL_FORMAT} v1 file`);
  }
  const vocab = new Map<FeatureGroup, Map<string, number>>();
  let row = 0;
  for (const [g, tokens] of header.groups) {
    const m = new Map<string, number>();
    for (const t of tokens) m.set(t, row++);
    vocab.set(g, m);
  }
  const w = width(header.heads);
  const body = raw.slice(4 + len);
  let weights: Float32Array;
  if (header.precision === "int8") {
    const q = new Int8Array(body.buffer, body.byteOffset, body.byteLength);
    const scales = header.scales ?? [];
    weights = new Float32Array(q.length);
    for (let i = 0; i < q.length; i++) weights[i] = (q[i] as number) * (scales[i % w] as number);
  } else {
    weights = Float32Array.from(
      new Float16Array(body.buffer, body.byteOffset, body.byteLength / 2),
    );
  }
  if (weights.length !== row * w)
    throw new Error(`facet model: ${weights.length} weights for ${row} rows`);
  const head = (h: Head): HeadWeights => ({
    classes: header.heads[h].classes,
    bias: Float32Array.from(header.heads[h].bias),
  });
  return new FacetModel(
    vocab,
    { type: head("type"), format: head("format"), audience: head("audience") },
    weights,
  );
}
