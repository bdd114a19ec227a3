/**
 * Article-body F1 of extraction on `shared/bench/extraction-articles` (181 news pages with
 * hand-checked bodies; the published scoring: 4-token shingles, per-page normalized, see
 * shingle-score.ts), for each main-content strategy of ours, beside trafilatura run as an outside
 * peer (python-peers.ts, in /work/cache/venv-trafilatura, made if missing).
 *
 *   bun test/bench/extraction-f1.ts [--data DIR] [--no-peer] [--only s1,s2] [--dump FILE]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { extractDocument } from "../../src/extract/extract-document.ts";
import { MAIN_CONTENT_STRATEGIES } from "../../src/extract/main-content.ts";
import { type PageScore, pageF1, scorePage, scoreSet } from "../eval/extraction/shingle-score.ts";
import { runPeer } from "./trafilatura-peer.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const REPO = resolve(import.meta.dir, "../..");
// The repo is checked out beside shared/ (a worktree one level deeper).
const DATA =
  option("--data") ??
  ["../shared", "../../shared"]
    .map((up) => resolve(REPO, up, "bench/extraction-articles"))
    .find((dir) => existsSync(dir)) ??
  resolve(REPO, "../shared/bench/extraction-articles");
if (!existsSync(join(DATA, "ground-truth.json"))) {
  console.error(`no benchmark data at ${DATA} (--data DIR)`);
  process.exit(2);
}
const truth: Record<string, { url: string; articleBody: string }> = JSON.parse(
  readFileSync(join(DATA, "ground-truth.json"), "utf8"),
);
const keys = Object.keys(truth).sort();
const pages = keys.map((key) => ({
  key,
  url: truth[key]?.url ?? "",
  body: truth[key]?.articleBody ?? "",
  path: join(DATA, "html", `${key}.html.gz`),
}));
const html = new Map(pages.map((p) => [p.key, new Uint8Array(gunzipSync(readFileSync(p.path)))]));

const only = option("--only")?.split(",");
const strategies = MAIN_CONTENT_STRATEGIES.filter((s) => !only || only.includes(s));
const rows: [string, ReturnType<typeof scoreSet>, number][] = [];
const perPage: Record<string, Record<string, number>> = {};
const texts: Record<string, Record<string, string>> = {};

for (const strategy of strategies) {
  const scores: PageScore[] = [];
  perPage[strategy] = {};
  texts[strategy] = {};
  const t0 = process.cpuUsage();
  for (const p of pages) {
    const doc = extractDocument(html.get(p.key) ?? new Uint8Array(), p.url, {
      mainContent: strategy,
    });
    const s = scorePage(p.body, doc.text);
    scores.push(s);
    perPage[strategy][p.key] = pageF1(s);
    texts[strategy][p.key] = doc.text;
  }
  const cpu = process.cpuUsage(t0);
  rows.push([
    `webcorpus (${strategy})`,
    scoreSet(scores),
    (cpu.user + cpu.system) / 1000 / pages.length,
  ]);
}

if (!flag("--no-peer")) {
  const peer = runPeer(pages.map((p) => ({ id: p.key, path: p.path, url: p.url })));
  for (const [mode, out] of Object.entries(peer.modes)) {
    const scores = pages.map((p) => scorePage(p.body, out[p.key] ?? ""));
    perPage[`trafilatura-${mode}`] = Object.fromEntries(
      pages.map((p, i) => [p.key, pageF1(scores[i] as PageScore)]),
    );
    rows.push([
      `trafilatura ${peer.version} (${mode})`,
      scoreSet(scores),
      peer.cpuMsPerPage[mode] ?? 0,
    ]);
  }
}

console.log(`${pages.length} pages from ${DATA}\n`);
console.log(
  `${"extractor".padEnd(34)} ${"F1".padStart(6)} ${"prec".padStart(6)} ${"recall".padStart(6)} ${"acc".padStart(6)} ${"CPU ms/page".padStart(12)}`,
);
for (const [name, s, ms] of rows) {
  console.log(
    `${name.padEnd(34)} ${s.f1.toFixed(3).padStart(6)} ${s.precision.toFixed(3).padStart(6)} ${s.recall.toFixed(3).padStart(6)} ${s.accuracy.toFixed(3).padStart(6)} ${ms.toFixed(1).padStart(12)}`,
  );
}
const dump = option("--dump");
if (dump) writeFileSync(dump, JSON.stringify(perPage, null, 1));
const textsFile = option("--texts");
if (textsFile) writeFileSync(textsFile, JSON.stringify(texts));
