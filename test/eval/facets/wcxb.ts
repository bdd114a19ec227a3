/**
 * Do `type` and `format` agree with what a page is? WCXB's development split (wcxb-pages.ts):
 * each page's kind against the facets the crawler's path gives it (extractDocument + scorePage
 * with the URL), under a fixed mapping (AGREES): a page agrees when its type OR its format is
 * one the mapping lists for its kind. Per-kind agreement and its macro mean.
 *
 *   bun test/eval/facets/wcxb.ts --wcxb /work/wcxb/dev [--cv 5] [--no-kind] [--train]
 *                                [--errors KIND] [--cache FILE]
 *
 * - default (`--cv 5`): the page-kind model (page-kind-model.ts) is learned, so it is
 *   cross-validated by site: 5 folds grouped by host (a site's pages are never in both), each
 *   fold scored by a model fitted on the other four. The rules are the same in every fold, and
 *   they were tuned looking at this split: their share of the figures is in-sample.
 * - `--cv 0`: the shipped files as they are (the shipped kind model saw every page: in-sample).
 * - `--no-kind`: without the page-kind model (rules + facet model alone).
 * - `--train`: fit the page-kind model on every page and write src/facets/model/page-kind.bin.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { encodeKindModel } from "../../../src/facets/kind-model-file.ts";
import {
  kindFeatures,
  PAGE_KINDS,
  type PageKind,
  type PageKindModel,
} from "../../../src/facets/page-kind-model.ts";
import { type PageFacets, scorePage } from "../../../src/facets/score-page.ts";
import { computeSignals, MAX_TEXT } from "../../../src/facets/signals.ts";
import { fitKind, type KindRow } from "./training/fit-kind.ts";
import { foldOf, loadWcxb, type WcxbPage } from "./wcxb-pages.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    wcxb: { type: "string", default: "/work/wcxb/dev" },
    cache: { type: "string", default: ".cache/wcxb-dev-docs.json" },
    cv: { type: "string", default: "5" },
    "no-kind": { type: "boolean", default: false },
    train: { type: "boolean", default: false },
    out: { type: "string", default: "src/facets/model/page-kind.bin" },
    errors: { type: "string" },
  },
});

/** The fixed mapping: which types and formats agree with each kind. */
export const AGREES: Readonly<
  Record<PageKind, { type: readonly string[]; format: readonly string[] }>
> = {
  listing: { type: ["listing"], format: ["listing"] },
  service: { type: ["product", "landing", "homepage"], format: ["landing"] },
  collection: { type: ["listing", "product"], format: ["listing"] },
  product: { type: ["product", "pricing"], format: [] },
  article: { type: ["blog", "news", "case_study", "event"], format: ["article", "tutorial"] },
  documentation: {
    type: ["docs", "api_reference", "support", "changelog"],
    format: ["reference", "tutorial"],
  },
  forum: { type: ["support", "other"], format: ["faq"] },
};

export function agrees(kind: PageKind, f: Pick<PageFacets, "type" | "format">): boolean {
  const a = AGREES[kind];
  return a.type.includes(f.type) || a.format.includes(f.format);
}

const t0 = performance.now();
const pages = loadWcxb(values.wcxb, values.cache);
console.error(`${pages.length} pages read in ${((performance.now() - t0) / 1000).toFixed(0)}s`);

function kindRow(p: WcxbPage): KindRow {
  const sig = computeSignals(
    p.doc,
    p.doc.text.slice(0, MAX_TEXT),
    p.doc.markdown.slice(0, MAX_TEXT),
  );
  return {
    feats: kindFeatures(p.doc, p.url, sig, p.doc.published !== null),
    kind: p.kind,
    site: p.site,
  };
}

if (values.train) {
  const model = fitKind(pages.map(kindRow));
  const file = encodeKindModel(model, {
    by: "test/eval/facets/wcxb.ts --train",
    data: "WCXB development split (CC-BY-4.0)",
  });
  writeFileSync(values.out, file);
  console.log(`wrote ${values.out} (${Math.round(file.length / 1024)} KiB)`);
  process.exit(0);
}

const k = values["no-kind"] ? 0 : Number(values.cv);
const facets = new Map<string, PageFacets>();
const kindPred = new Map<string, string>();
const score = (p: WcxbPage, kindModel: PageKindModel | null | undefined) => {
  const scored = scorePage(p.doc, p.url, kindModel === undefined ? {} : { kindModel });
  facets.set(p.id, scored.facets);
  const k = scored.explain.type.find((w) => w.startsWith("kind: "));
  if (k) kindPred.set(p.id, k.slice(6).split(" ")[0] ?? "");
};
if (values["no-kind"]) for (const p of pages) score(p, null);
else if (k > 1) {
  const rows = new Map(pages.map((p) => [p.id, kindRow(p)]));
  for (let i = 0; i < k; i++) {
    const train = pages.filter((p) => foldOf(p.site, k) !== i);
    const model = fitKind(train.map((p) => rows.get(p.id) as KindRow));
    for (const p of pages) if (foldOf(p.site, k) === i) score(p, model);
    console.error(`fold ${i + 1}/${k} done`);
  }
} else for (const p of pages) score(p, undefined);

const mode = values["no-kind"]
  ? "rules + facet model, no page-kind model"
  : k > 1
    ? `page-kind model ${k}-fold cross-validated by site (out-of-fold); rules tuned on this split (in-sample)`
    : "shipped files (page-kind model trained on this split: in-sample)";
console.log(
  `WCXB ${values.wcxb}: ${pages.length} pages, ${new Set(pages.map((p) => p.site)).size} sites; ${mode}`,
);
console.log("kind           pages  agree  kind-model");
const per: number[] = [];
for (const kind of PAGE_KINDS) {
  const of = pages.filter((p) => p.kind === kind);
  const ok = of.filter((p) => agrees(kind, facets.get(p.id) as PageFacets)).length;
  const km = of.filter((p) => kindPred.get(p.id) === kind).length;
  per.push(ok / of.length);
  console.log(
    `${kind.padEnd(14)} ${String(of.length).padStart(5)}  ${(ok / of.length).toFixed(3)}  ${kindPred.size ? (km / of.length).toFixed(2) : "-"}`,
  );
}
if (kindPred.size) {
  console.log(
    `kind model confusion (rows: gold; columns: ${PAGE_KINDS.map((c) => c.slice(0, 4)).join(" ")})`,
  );
  for (const kind of PAGE_KINDS) {
    const of = pages.filter((p) => p.kind === kind);
    const row = PAGE_KINDS.map((c) =>
      String(of.filter((p) => kindPred.get(p.id) === c).length).padStart(4),
    );
    console.log(`  ${kind.padEnd(14)}${row.join(" ")}`);
  }
}
const macro = per.reduce((a, b) => a + b, 0) / per.length;
const all = pages.filter((p) => agrees(p.kind, facets.get(p.id) as PageFacets)).length;
console.log(
  `macro ${macro.toFixed(3)}  (pages agreeing: ${(all / pages.length).toFixed(3)}; min kind ${Math.min(...per).toFixed(2)})`,
);
if (values.errors) {
  const tally = new Map<string, number>();
  for (const p of pages) {
    if (p.kind !== values.errors) continue;
    const f = facets.get(p.id) as PageFacets;
    if (agrees(p.kind, f)) continue;
    const key = `${f.type}/${f.format}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    console.log(
      `  ${p.id} ${f.type}/${f.format} kind=${kindPred.get(p.id) ?? "-"} ${p.url.slice(0, 100)}`,
    );
  }
  console.log(
    `  ${[...tally]
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${t} ${n}`)
      .join(", ")}`,
  );
}
