/**
 * The page-kind model's data file (`model/page-kind.bin`): gzip of `[u32 LE header length][header
 * JSON][int8 weights]`, one scale per class column (weight = q * scale), as model-file.ts stores
 * the facet model. Pure: the bytes come from and go to the caller.
 */
import { KIND_GROUPS, type KindGroup, type PageKind, PageKindModel } from "./page-kind-model.ts";

export const KIND_MODEL_FORMAT = "webcorpus-page-kind-model";

interface Header {
  readonly format: typeof KIND_MODEL_FORMAT;
  readonly version: 1;
  readonly groups: readonly (readonly [KindGroup, readonly string[]])[];
  readonly classes: readonly PageKind[];
  readonly bias: readonly number[];
  readonly scales: readonly number[];
  readonly source?: Readonly<Record<string, string>>;
}

export function encodeKindModel(model: PageKindModel, source?: Record<string, string>): Uint8Array {
  const k = model.classes.length;
  const groups: [KindGroup, string[]][] = [];
  let rows = 0;
  for (const g of KIND_GROUPS) {
    const vg = model.vocab.get(g);
    const tokens = vg ? [...vg].sort((a, b) => a[1] - b[1]).map(([t]) => t) : [];
    groups.push([g, tokens]);
    rows += tokens.length;
  }
  const scales = Array.from({ length: k }, () => 0);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < k; j++) {
      scales[j] = Math.max(scales[j] as number, Math.abs(model.weight(r, j)) / 127);
    }
  }
  const q = new Int8Array(rows * k);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < k; j++) {
      const s = scales[j] as number;
      q[r * k + j] = s ? Math.round(model.weight(r, j) / s) : 0;
    }
  }
  const header: Header = {
    format: KIND_MODEL_FORMAT,
    version: 1,
    groups,
    classes: model.classes,
    bias: Array.from(model.bias),
    scales,
    ...(source ? { source } : {}),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(4 + json.length + q.length);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  out.set(new Uint8Array(q.buffer), 4 + json.length);
  return Bun.gzipSync(out, { level: 9 });
}

export function decodeKindModel(file: Uint8Array): PageKindModel {
  const raw = Bun.gunzipSync(new Uint8Array(file));
  const len = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(raw.subarray(4, 4 + len))) as Header;
  if (header.format !== KIND_MODEL_FORMAT || header.version !== 1) {
    throw new Error(`not a ${KIND_MODEL_FORMAT} v1 file`);
  }
  const vocab = new Map<KindGroup, Map<string, number>>();
  let row = 0;
  for (const [g, tokens] of header.groups) {
    const m = new Map<string, number>();
    for (const t of tokens) m.set(t, row++);
    vocab.set(g, m);
  }
  const k = header.classes.length;
  const body = raw.slice(4 + len);
  const q = new Int8Array(body.buffer, body.byteOffset, body.byteLength);
  const weights = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) weights[i] = (q[i] as number) * (header.scales[i % k] ?? 0);
  return new PageKindModel(vocab, header.classes, Float32Array.from(header.bias), weights);
}
