/**
 * Evaluate the facets (src/facets/score-page.ts) on the hand-labeled pages, extracted by
 * src/extract as the crawler extracts them.
 *
 *   bun test/eval/facets/evaluate.ts [--split holdout|tune|all] [--errors] [--rules-only]
 *                                    [--per-type] [--labels FILE ...] [--model FILE]
 *
 * The learned model is trained on the tune split (the reference's train.py, exported by
 * export-model.ts, or train.ts), so tune figures are in-sample: the honest tune figure is
 * `bun test/eval/facets/train.ts --cv 5`. Pages and their sources: labeled-pages.ts.
 * `--reference-docs` scores the reference's extracted documents instead of ours (needs the
 * reference's virtualenv): the facets' figures apart from differences of extraction.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { ExtractedDocument } from "../../../src/extract/document.ts";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import type { FacetModel } from "../../../src/facets/facet-model.ts";
import { decodeModel } from "../../../src/facets/model-file.ts";
import { type PageFacets, scorePage } from "../../../src/facets/score-page.ts";
import { pythonScript } from "../../bench/python-peers.ts";
import {
  htmlPath,
  LABEL_FILES,
  type LabelRow,
  loadHtml,
  readLabels,
  tuneSections,
} from "./labeled-pages.ts";
import { accuracy, binaryF1, macroF1, median, perClassF1, spearman } from "./metrics.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    split: { type: "string", default: "holdout" },
    errors: { type: "boolean", default: false },
    "rules-only": { type: "boolean", default: false },
    "per-type": { type: "boolean", default: false },
    labels: { type: "string", multiple: true },
    model: { type: "string" },
    source: { type: "string", multiple: true },
    "reference-docs": { type: "boolean", default: false },
    "ref-python": { type: "string", default: "/work/ref/.venv/bin/python" },
  },
});

const all = readLabels(values.labels?.length ? values.labels : LABEL_FILES);
const tuned = tuneSections(all);
let rows = values.split === "all" ? all : all.filter((r) => r.split === values.split);
if (values.source?.length) rows = rows.filter((r) => values.source?.includes(r.source));
let model: FacetModel | null | undefined;
if (values["rules-only"]) model = null;
else if (values.model) model = decodeModel(new Uint8Array(readFileSync(values.model)));

/** The reference's extraction of every row (the reference_facets.py peer of test/bench/python-peers.ts, in its virtualenv):
 * scores the facets alone, apart from differences of extraction. */
function referenceDocs(): ExtractedDocument[] {
  const script = pythonScript("reference_facets.py");
  const lines = rows.map((r) => `${r.url}\t${htmlPath(r)}`).join("\n");
  const proc = Bun.spawnSync([values["ref-python"], script, "", "/"], {
    stdin: new TextEncoder().encode(lines),
    stderr: "inherit",
  });
  if (proc.exitCode !== 0) throw new Error(`reference_facets.py exited ${proc.exitCode}`);
  return proc.stdout
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { doc: ExtractedDocument }).doc);
}

scorePage(extractDocument("<p>warm up</p>", "https://x.test/"), "https://x.test/", { model });
const docs = values["reference-docs"] ? referenceDocs() : null;
const preds: PageFacets[] = [];
const cpuMs: number[] = [];
for (const [i, row] of rows.entries()) {
  const doc = docs?.[i] ?? extractDocument(loadHtml(row), row.url);
  const t0 = process.cpuUsage();
  preds.push(scorePage(doc, row.url, { model }).facets);
  const c = process.cpuUsage(t0);
  cpuMs.push((c.user + c.system) / 1000);
}

const sources = new Map<string, number>();
for (const r of rows) sources.set(r.source, (sources.get(r.source) ?? 0) + 1);
console.log(
  `split=${values.split} pages=${rows.length} extractor=${docs ? "the reference's (Python)" : "src/extract"} (${model === null ? "rules only" : "rules + learned model"})`,
);
if (values.split !== "holdout" && model !== null) {
  console.log(
    "note: the learned model is trained on the tune split (in-sample; see train.ts --cv)",
  );
}
console.log(`sources: ${JSON.stringify(Object.fromEntries(sources))}`);

type Head = "type" | "format" | "audience" | "locale";
const pairs = (facet: Head, subset = rows.map((_, i) => i)) => ({
  gold: subset.map((i) => (rows[i] as LabelRow)[facet]),
  pred: subset.map((i) => (preds[i] as PageFacets)[facet]),
});
for (const facet of ["type", "format", "audience", "locale"] as const) {
  const { gold, pred } = pairs(facet);
  console.log(
    `${facet.padEnd(9)} accuracy ${accuracy(gold, pred).toFixed(3)}  macro-F1 ${macroF1(gold, pred).toFixed(3)}`,
  );
  if (values.errors) {
    rows.forEach((r, i) => {
      if (r[facet] !== preds[i]?.[facet]) {
        console.log(`    ${r.id.slice(-70).padEnd(70)} gold=${r[facet]} pred=${preds[i]?.[facet]}`);
      }
    });
  }
}
if (values["per-type"]) {
  for (const facet of ["type", "format", "audience"] as const) {
    const { gold, pred } = pairs(facet);
    const f1 = perClassF1(gold, pred);
    const support = (l: string) => gold.filter((g) => g === l).length;
    console.log(
      `  ${facet} F1 per label: ${[...f1].map(([l, f]) => `${l} ${f.toFixed(2)} (${support(l)})`).join(", ")}`,
    );
  }
}
if (values.split === "holdout") {
  // A model trained on tune can recognise a handbook section it saw labeled in another language.
  const fresh = rows
    .map((r, i) => [r, i] as const)
    .filter(([r]) => !(r.source === "debian-handbook" && tuned.has(r.ref.split("/").at(-1) ?? "")))
    .map(([, i]) => i);
  const figures = (["type", "format", "audience"] as const)
    .map((f) => {
      const { gold, pred } = pairs(f, fresh);
      return `${f} ${macroF1(gold, pred).toFixed(3)}`;
    })
    .join(", ");
  console.log(`macro-F1 on the ${fresh.length} pages with no translation in tune: ${figures}`);
}
const langOf = (t: string) => t.split("-")[0];
console.log(
  `locale language-only accuracy ${accuracy(
    rows.map((r) => langOf(r.locale)),
    preds.map((p) => langOf(p.locale)),
  ).toFixed(3)}`,
);
const hb = rows.map((r, i) => [r, i] as const).filter(([r]) => r.source === "debian-handbook");
if (hb.length) {
  const ok = hb.filter(([r, i]) => r.locale === preds[i]?.locale).length;
  const langs = new Set(hb.map(([r]) => r.locale)).size;
  console.log(`locale on debian-handbook: ${ok}/${hb.length} (${langs} languages)`);
}
const goldCode = rows.map((r) => Boolean(r.has_code));
const predCode = preds.map((p) => p.has_code);
console.log(
  `has_code  accuracy ${accuracy(goldCode, predCode).toFixed(3)}  F1 ${binaryF1(goldCode, predCode).toFixed(3)}`,
);
if (values.errors) {
  rows.forEach((r, i) => {
    if (Boolean(r.has_code) !== preds[i]?.has_code) {
      console.log(
        `    ${r.id.slice(-70).padEnd(70)} gold=${r.has_code} pred=${preds[i]?.has_code}`,
      );
    }
  });
}
const dated = rows.map((r, i) => [r, preds[i] as PageFacets] as const).filter(([r]) => r.published);
if (dated.length) {
  const exact = dated.filter(([r, p]) => r.published === p.published).length / dated.length;
  const days = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / 86_400_000;
  const errs = dated
    .filter(([, p]) => p.published)
    .map(([r, p]) => days(r.published as string, p.published as string));
  const mae = errs.length ? errs.reduce((a, b) => a + b, 0) / errs.length : Number.NaN;
  const missing = dated.length - errs.length;
  console.log(
    `published exact-date ${exact.toFixed(3)} on ${dated.length} dated pages; MAE ${mae.toFixed(1)} days over ${errs.length} with a prediction; ${missing} missing`,
  );
  if (values.errors) {
    for (const [r, p] of dated) {
      if (r.published !== p.published) {
        console.log(`    ${r.id.slice(-70).padEnd(70)} gold=${r.published} pred=${p.published}`);
      }
    }
  }
}
const ranked = rows
  .map((r, i) => [r, preds[i] as PageFacets] as const)
  .filter(([r]) => r.technicality_rank !== undefined);
for (const facet of ["technicality", "promotional"] as const) {
  if (!ranked.length) break;
  const rho = spearman(
    ranked.map(([r]) => r[`${facet}_rank`] ?? 0),
    ranked.map(([, p]) => p[facet]),
  );
  console.log(`${facet} Spearman rho ${rho.toFixed(3)} on ${ranked.length} ranked pages`);
}
const sorted = [...cpuMs].sort((a, b) => a - b);
console.log(
  `scorePage CPU ms/page: mean ${(cpuMs.reduce((a, b) => a + b, 0) / cpuMs.length).toFixed(2)}, median ${median(cpuMs).toFixed(2)}, p95 ${(sorted[Math.floor(0.95 * sorted.length)] ?? 0).toFixed(2)}`,
);
