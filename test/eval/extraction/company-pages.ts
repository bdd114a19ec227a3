/**
 * Extraction F1 on company-site pages by page type (service, product, collection, listing,
 * forum, documentation, article): 670 pages of WCXB's development split listed in
 * company-pages.json (provenance and licence there), beside trafilatura as an outside peer.
 * Two metrics: the article benchmark's (4-token shingles, per-page normalized means) and WCXB's
 * own (bag-of-words F1 per page, lowercased, averaged), so figures compare with its tables.
 * `--split dev` and `--split dev2` (a second, larger draw) are what we tune on; `--split holdout`
 * is reported, never tuned on. Splits may be listed with commas (`--split dev,dev2`).
 *
 *   bun test/eval/extraction/company-pages.ts [--split dev|dev2|holdout|all|A,B] [--data DIR]
 *     [--no-peer] [--only strategy,...] [--texts FILE]
 *
 * The pages are not in the repo: prepare-company-pages.ts copies them from a WCXB checkout to
 * the data dir (default: shared/bench/extraction-company beside the repo, else
 * /work/cache/extraction-company).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { MAIN_CONTENT_STRATEGIES } from "../../../src/extract/main-content.ts";
import { runPeer } from "../../bench/trafilatura-peer.ts";
import { type PageScore, pageF1, scorePage, tokens } from "./shingle-score.ts";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const REPO = resolve(import.meta.dir, "../../..");
const DATA =
  option("--data") ??
  [
    resolve(REPO, "../shared/bench/extraction-company"),
    resolve(REPO, "../../shared/bench/extraction-company"),
    "/work/cache/extraction-company",
  ].find((dir) => existsSync(join(dir, "ground-truth")));
if (!DATA) {
  console.error("no company-pages data (run prepare-company-pages.ts, or --data DIR)");
  process.exit(2);
}
const split = option("--split") ?? "dev";
const splits = new Set(split.split(","));
const manifest = JSON.parse(readFileSync(join(import.meta.dir, "company-pages.json"), "utf8")) as {
  pages: { id: string; type: string; split: string; url: string }[];
};
const pages = manifest.pages
  .filter((p) => split === "all" || splits.has(p.split))
  .map((p) => {
    const gt = JSON.parse(readFileSync(join(DATA, "ground-truth", `${p.id}.json`), "utf8")) as {
      ground_truth: { main_content?: string | null };
    };
    return {
      ...p,
      truth: gt.ground_truth.main_content ?? "",
      path: join(DATA, "html", `${p.id}.html.gz`),
    };
  });

/** WCXB's metric: bag-of-words F1 of lowercased `\w+` tokens. */
function wordF1(predicted: string, reference: string): number {
  const count = (s: string) => {
    const m = new Map<string, number>();
    for (const t of tokens(s.toLowerCase())) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  const pred = count(predicted);
  const ref = count(reference);
  if (ref.size === 0) return pred.size === 0 ? 1 : 0;
  if (pred.size === 0) return 0;
  let overlap = 0;
  let np = 0;
  let nr = 0;
  for (const [t, n] of pred) {
    overlap += Math.min(n, ref.get(t) ?? 0);
    np += n;
  }
  for (const n of ref.values()) nr += n;
  const p = overlap / np;
  const r = overlap / nr;
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

interface Row {
  shingle: PageScore;
  word: number;
}
const results = new Map<string, Map<string, Row>>(); // extractor -> page id -> scores
const texts: Record<string, Record<string, string>> = {};
const only = option("--only")?.split(",");
for (const strategy of MAIN_CONTENT_STRATEGIES.filter((s) => !only || only.includes(s))) {
  const rows = new Map<string, Row>();
  texts[strategy] = {};
  for (const p of pages) {
    const html = new Uint8Array(gunzipSync(readFileSync(p.path)));
    const text = extractDocument(html, p.url, { mainContent: strategy }).text;
    texts[strategy][p.id] = text;
    rows.set(p.id, { shingle: scorePage(p.truth, text), word: wordF1(text, p.truth) });
  }
  results.set(`webcorpus (${strategy})`, rows);
}
if (!args.includes("--no-peer")) {
  const peer = runPeer(pages.map((p) => ({ id: p.id, path: p.path, url: p.url })));
  for (const [mode, out] of Object.entries(peer.modes)) {
    const rows = new Map<string, Row>();
    for (const p of pages) {
      const text = out[p.id] ?? "";
      rows.set(p.id, { shingle: scorePage(p.truth, text), word: wordF1(text, p.truth) });
    }
    results.set(`trafilatura ${peer.version} (${mode})`, rows);
  }
}

function f1Of(scores: PageScore[]): number {
  const n = Math.max(scores.length, 1);
  const p = scores.reduce((s, x) => s + x.precision, 0) / n;
  const r = scores.reduce((s, x) => s + x.recall, 0) / n;
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

const types = [...new Set(pages.map((p) => p.type))].sort();
const columns = [...types, "all"];
const pad = (s: string, n: number) => s.padStart(n);
console.log(`${pages.length} pages (${split}) from ${DATA}`);
for (const metric of ["shingle F1 (article-benchmark metric)", "word F1 (WCXB metric)"]) {
  console.log(`\n${metric}`);
  console.log(`${"extractor".padEnd(36)}${columns.map((c) => pad(c.slice(0, 11), 12)).join("")}`);
  for (const [name, rows] of results) {
    const cells = columns.map((type) => {
      const sel = pages.filter((p) => type === "all" || p.type === type).map((p) => rows.get(p.id));
      const ok = sel.filter((r): r is Row => r !== undefined);
      const v = metric.startsWith("shingle")
        ? f1Of(ok.map((r) => r.shingle))
        : ok.reduce((s, r) => s + r.word, 0) / Math.max(ok.length, 1);
      return pad(v.toFixed(3), 12);
    });
    console.log(`${name.padEnd(36)}${cells.join("")}`);
  }
}
const textsFile = option("--texts");
if (textsFile) {
  const perPage = Object.fromEntries(
    [...results].map(([name, rows]) => [
      name,
      Object.fromEntries([...rows].map(([id, r]) => [id, pageF1(r.shingle)])),
    ]),
  );
  writeFileSync(textsFile, JSON.stringify({ texts, perPage }));
}
