/**
 * Train the learned type / format / audience model (src/facets/facet-model.ts) on our own
 * extraction, the way the reference's eval/facets/train.py trained its facet_model.npz.
 *
 *   bun test/eval/facets/train.ts [--out FILE] [--cv 5] [--cache FILE] [--labels FILE ...]
 *
 * Training data (deterministic: sorted files, L-BFGS from zero): weak labels (the rules'
 * confident decisions) over every page we can read without hand labels (the unpacked Debian doc
 * sites, the article benchmark) plus the hand labels of the `tune` split (labels.jsonl and
 * labels-sites.jsonl unless --labels says otherwise). Nothing of `holdout` is read. `--cv K`:
 * grouped K-fold cross-validation on the tune pages (out-of-fold predictions), no file written.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { decodeModel, encodeModel, type Precision } from "../../../src/facets/model-file.ts";
import { MODEL_OVERRIDE_P, scorePage } from "../../../src/facets/score-page.ts";
import { LABEL_FILES, loadHtml, readLabels } from "./labeled-pages.ts";
import { macroF1 } from "./metrics.ts";
import { fit, PARAMS } from "./training/fit-model.ts";
import { collectPool, type PoolPage } from "./training/pool.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    out: { type: "string", default: "src/facets/model/facet-model.bin" },
    cv: { type: "string", default: "0" },
    cache: { type: "string", default: ".cache/facet-pool.json" },
    labels: { type: "string", multiple: true },
    precision: { type: "string", default: "int8" },
    errors: { type: "boolean", default: false },
    /** With --cv: out-of-fold audience and format macro-F1 for each override threshold listed. */
    "sweep-override": { type: "string" },
    /** A hyper-parameter of training/fit-model.ts PARAMS other than the shipped one: name=value. */
    param: { type: "string", multiple: true },
  },
});

for (const kv of values.param ?? []) {
  const [name = "", value = ""] = kv.split("=");
  if (!(name in PARAMS) || typeof PARAMS[name as keyof typeof PARAMS] !== "number")
    throw new Error(`--param ${kv}: not a numeric parameter of PARAMS`);
  Object.assign(PARAMS, { [name]: Number(value) });
}

const labels = readLabels(values.labels?.length ? values.labels : LABEL_FILES);
mkdirSync(dirname(values.cache), { recursive: true });
const t0 = performance.now();
const pool = collectPool(labels, values.cache);
const hand = pool.filter((p) => p.hand);
console.error(
  `${pool.length} pages (${hand.length} hand-labeled) read in ${((performance.now() - t0) / 1000).toFixed(0)}s`,
);

function crossValidate(k: number): void {
  const fold = (p: PoolPage) =>
    Number(BigInt(`0x${createHash("sha1").update(p.group).digest("hex")}`) % BigInt(k));
  const rows = new Map(labels.map((r) => [r.id, r]));
  const preds = new Map<string, Record<string, string>>();
  /** The model's reason for each head (with --errors: why it did or did not override the rule). */
  const modelWhy = new Map<string, Record<string, string>>();
  const rulePreds = new Map<string, Record<string, string>>();
  const thresholds = (values["sweep-override"] ?? "").split(",").filter(Boolean).map(Number);
  const swept = new Map<number, Map<string, Record<string, string>>>(
    thresholds.map((t) => [t, new Map()]),
  );
  for (let i = 0; i < k; i++) {
    const test = hand.filter((p) => fold(p) === i);
    const model = decodeModel(encodeModel(fit(pool, new Set(test.map((p) => p.id))), "f16"));
    for (const p of test) {
      const row = rows.get(p.id);
      if (!row) continue;
      const doc = extractDocument(loadHtml(row), p.url);
      for (const [m, out] of [
        [model, preds],
        [null, rulePreds],
      ] as const) {
        const { facets: f, explain } = scorePage(doc, p.url, { model: m });
        out.set(p.id, { type: f.type, format: f.format, audience: f.audience });
        if (m) {
          modelWhy.set(p.id, {
            format: explain.format.at(-1) ?? "",
            audience: explain.audience.at(-1) ?? "",
          });
        }
      }
      for (const [t, out] of swept) {
        const f = scorePage(doc, p.url, { model, overrideP: { format: t, audience: t } }).facets;
        out.set(p.id, { type: f.type, format: f.format, audience: f.audience });
      }
    }
    console.error(`fold ${i + 1}/${k} done`);
  }
  const subsets: [string, PoolPage[]][] = [
    ["all tune pages", hand],
    ["reference's tune pages", hand.filter((p) => p.source !== "sites")],
    ["sites tune pages", hand.filter((p) => p.source === "sites")],
  ];
  for (const [name, pages] of subsets) {
    if (!pages.length) continue;
    console.log(`${k}-fold CV on ${pages.length} ${name} (out-of-fold predictions):`);
    for (const head of ["type", "format", "audience"] as const) {
      const gold = pages.map((p) => p.hand?.[head] ?? "");
      const r = pages.map((p) => rulePreds.get(p.id)?.[head] ?? "");
      const m = pages.map((p) => preds.get(p.id)?.[head] ?? "");
      console.log(
        `  ${head.padEnd(9)} macro-F1 rules ${macroF1(gold, r).toFixed(3)} -> rules+model ${macroF1(gold, m).toFixed(3)}`,
      );
      if (head !== "type" && swept.size) {
        const at = [...swept].map(([t, out]) => {
          const f1 = macroF1(
            gold,
            pages.map((p) => out.get(p.id)?.[head] ?? ""),
          );
          return `${t}: ${f1.toFixed(3)}`;
        });
        console.log(`    override p (shipped ${MODEL_OVERRIDE_P[head]}) ${at.join(", ")}`);
      }
      if (values.errors && name === "all tune pages") {
        pages.forEach((p, i) => {
          if (gold[i] !== m[i])
            console.log(
              `    ${p.id.slice(-64).padEnd(64)} gold=${gold[i]} pred=${m[i]} rules=${r[i]}${head === "type" ? "" : `  [${modelWhy.get(p.id)?.[head] ?? ""}]`}`,
            );
        });
      }
    }
  }
}

if (Number(values.cv) > 0) crossValidate(Number(values.cv));
else {
  const parts = fit(pool, new Set(), true);
  const file = encodeModel(parts, values.precision as Precision, {
    by: "test/eval/facets/train.ts",
    labels: (values.labels?.length ? values.labels : LABEL_FILES)
      .map((f) => f.split("/").at(-1))
      .join(","),
  });
  writeFileSync(values.out, file);
  console.log(
    `wrote ${values.out} (${Math.round(file.length / 1024)} KiB, ${parts.rows.length} features)`,
  );
}
