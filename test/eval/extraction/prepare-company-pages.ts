/**
 * Builds the company-pages dev set from a git checkout (or bare mirror) of WCXB, the Web Content
 * Extraction Benchmark (Murrough Foley, 2026, CC-BY-4.0): from its *development* split only
 * (never its held-out test split), 60 pages of each of its seven page types, drawn with a fixed
 * seed; per type, the first 40 are our tuning set ("dev") and the next 20 our holdout, which
 * nothing is tuned on. Writes the manifest (test/eval/extraction/company-pages.json, committed:
 * ids, types, splits, URLs) and copies the pages' HTML and ground truth to --out (not committed).
 *
 *   bun test/eval/extraction/prepare-company-pages.ts --wcxb GIT_DIR [--out DIR]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const gitDir = option("--wcxb");
if (!gitDir) {
  console.error("usage: prepare-company-pages.ts --wcxb GIT_DIR [--out DIR]");
  process.exit(2);
}
const out = option("--out") ?? "/work/cache/extraction-company";

function show(path: string): Buffer {
  const p = Bun.spawnSync(["git", `--git-dir=${gitDir}`, "show", `HEAD:${path}`]);
  if (p.exitCode !== 0) throw new Error(`git show ${path}: ${p.stderr.toString()}`);
  return p.stdout;
}
const commit = Bun.spawnSync(["git", `--git-dir=${gitDir}`, "rev-parse", "HEAD"])
  .stdout.toString()
  .trim();

interface Meta {
  split: string;
  page_type: string;
  domain: string;
}
const metadata = JSON.parse(show("metadata.json").toString()) as { files: Record<string, Meta> };

/** mulberry32: a small seeded PRNG, so the draw is the same on every machine. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TUNE = 40;
const HOLDOUT = 20;
/** A second tuning set, drawn after the first two: up to this many more pages per type. */
const DEV2 = 40;
const byType = new Map<string, string[]>();
for (const [id, m] of Object.entries(metadata.files)) {
  if (m.split !== "dev") continue;
  byType.set(m.page_type, [...(byType.get(m.page_type) ?? []), id]);
}
const pages: {
  id: string;
  type: string;
  split: "dev" | "holdout" | "dev2";
  url: string;
  domain: string;
}[] = [];
mkdirSync(join(out, "html"), { recursive: true });
mkdirSync(join(out, "ground-truth"), { recursive: true });
for (const [type, ids] of [...byType].sort(([a], [b]) => a.localeCompare(b))) {
  const random = rng(20261127);
  const shuffled = ids.sort().map((id) => [random(), id] as const);
  shuffled.sort((a, b) => a[0] - b[0]);
  shuffled.slice(0, TUNE + HOLDOUT + DEV2).forEach(([, id], i) => {
    const truth = show(`dev/ground-truth/${id}.json`);
    const url = (JSON.parse(truth.toString()) as { url: string }).url;
    writeFileSync(join(out, "ground-truth", `${id}.json`), truth);
    writeFileSync(join(out, "html", `${id}.html.gz`), show(`dev/html/${id}.html.gz`));
    pages.push({
      id,
      type,
      split: i < TUNE ? "dev" : i < TUNE + HOLDOUT ? "holdout" : "dev2",
      url,
      domain: metadata.files[id]?.domain ?? "",
    });
  });
}
const manifest = {
  source: "WCXB: Web Content Extraction Benchmark v1.0 (Murrough Foley, 2026)",
  repository: "github.com/Murrough-Foley/web-content-extraction-benchmark",
  commit,
  licence: "CC-BY-4.0 (HTML cached from public pages; ground truth human-reviewed)",
  drawn_from: "the benchmark's development split only; its held-out test split is never read",
  selection: `per page type, seeded shuffle: ${TUNE} tuning pages (dev), ${HOLDOUT} holdout pages, then up to ${DEV2} more tuning pages (dev2)`,
  pages,
};
writeFileSync(
  join(import.meta.dir, "company-pages.json"),
  `${JSON.stringify(manifest, null, 1)}\n`,
);
console.log(`${pages.length} pages (${[...byType.keys()].join(", ")}) -> ${out}`);
