/**
 * Export the reference's trained facet model (numpy .npz: vocabulary and float16 weight
 * matrices of the type / format / audience heads) to our data file.
 *
 *   bun test/eval/facets/export-model.ts [NPZ] [--precision int8|f16] [--out FILE]
 *
 * NPZ defaults to /work/ref/src/webcorpus/facets/facet_model.npz (written by the reference's
 * eval/facets/train.py); the output to src/facets/model/facet-model.bin.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { HEADS, type Head } from "../../../src/facets/facet-model.ts";
import type { FeatureGroup } from "../../../src/facets/model-features.ts";
import { decodeModel, encodeModel, type Precision } from "../../../src/facets/model-file.ts";
import { type NpyArray, readNpz } from "./npz.ts";

const { values, positionals } = parseArgs({
  args: Bun.argv.slice(2),
  allowPositionals: true,
  options: {
    precision: { type: "string", default: "int8" },
    out: { type: "string", default: "src/facets/model/facet-model.bin" },
  },
});
const npzPath = positionals[0] ?? "/work/ref/src/webcorpus/facets/facet_model.npz";
const precision = values.precision as Precision;
const bytes = new Uint8Array(readFileSync(npzPath));
const arrays = readNpz(bytes);

function get(name: string): NpyArray {
  const a = arrays.get(name);
  if (!a) throw new Error(`${npzPath}: no array ${name}`);
  return a;
}
function strings(name: string): string[] {
  const a = get(name);
  if (a.kind !== "string") throw new Error(`${name} is not strings`);
  return a.data;
}
function numbers(name: string): ArrayLike<number> & { length: number } {
  const a = get(name);
  if (a.kind !== "number") throw new Error(`${name} is not numeric`);
  return a.data;
}

const groups = strings("vocab_group") as FeatureGroup[];
const tokens = strings("vocab_token");
const cols = numbers("vocab_col");
const n = cols.length;
const order = Array.from({ length: n }, (_, i) => i).sort(
  (a, b) => (cols[a] as number) - (cols[b] as number),
);
order.forEach((i, row) => {
  if (cols[i] !== row) throw new Error(`vocab columns are not 0..${n - 1}`);
});
const rows = order.map((i) => [groups[i] as FeatureGroup, tokens[i] as string] as const);

const heads = {} as Record<Head, { classes: string[]; bias: number[] }>;
for (const h of HEADS)
  heads[h] = { classes: strings(`classes_${h}`), bias: Array.from(numbers(`b_${h}`)) };
const width = HEADS.reduce((s, h) => s + heads[h].classes.length, 0);
const weights = new Float32Array(n * width);
let offset = 0;
for (const h of HEADS) {
  const w = numbers(`W_${h}`);
  const k = heads[h].classes.length;
  for (let r = 0; r < n; r++) {
    for (let j = 0; j < k; j++) weights[r * width + offset + j] = w[r * k + j] as number;
  }
  offset += k;
}

const sha = createHash("sha256").update(bytes).digest("hex");
const file = encodeModel({ rows, heads, weights }, precision, {
  from: basename(npzPath),
  sha256: sha,
  by: "test/eval/facets/export-model.ts",
});
writeFileSync(values.out, file);

// Check: decode and compare every weight with the source.
const back = decodeModel(file);
let maxErr = 0;
offset = 0;
for (const h of HEADS) {
  const k = heads[h].classes.length;
  for (let r = 0; r < n; r++) {
    for (let j = 0; j < k; j++) {
      const err = Math.abs(back.weight(h, r, j) - (weights[r * width + offset + j] as number));
      maxErr = Math.max(maxErr, err);
    }
  }
  offset += k;
}
console.log(
  `wrote ${values.out}: ${file.length} bytes (${precision}), ${n} features x ${width} classes, ` +
    `max weight error ${maxErr.toExponential(2)}; source sha256 ${sha.slice(0, 16)}`,
);
