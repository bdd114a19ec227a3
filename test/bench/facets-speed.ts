/**
 * Facet CPU per page on Python-docs pages, ours beside the reference's (Python) in one run.
 *
 *   bun test/bench/facets-speed.ts [--limit 300] [--rounds 2] [--ref-python PATH]
 *
 * Each round runs the reference (the reference_facets.py peer of python-peers.ts: its extraction, then its
 * score_page and simhash64 timed: our scorePage computes the SimHash too) and then ours twice: on the reference's extracted documents (the same
 * input, so the figure is the facets' alone, and the facets are compared value by value) and on
 * our own extraction (src/extract). CPU time per page (process.cpuUsage / time.process_time);
 * the machine is shared and noisy, so compare the ratios within a round.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ExtractedDocument } from "../../src/extract/document.ts";
import { extractDocument } from "../../src/extract/extract-document.ts";
import { type PageFacets, scorePage } from "../../src/facets/score-page.ts";
import { median } from "../eval/facets/metrics.ts";
import { pythonScript } from "./python-peers.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    limit: { type: "string", default: "300" },
    rounds: { type: "string", default: "2" },
    root: { type: "string", default: "/work/cache/root/usr/share/doc/python3.11/html/" },
    "ref-python": { type: "string", default: "/work/ref/.venv/bin/python" },
  },
});
const BASE = "https://docs.python.org/3.11/";
const root = values.root.endsWith("/") ? values.root : `${values.root}/`;

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...htmlFiles(p));
    else if (entry.isFile() && entry.name.endsWith(".html")) out.push(p);
  }
  return out;
}
// The reference's bench took pages in Python's sorted rglob order: sort the full paths the same way.
const files = htmlFiles(root)
  .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  .slice(0, Number(values.limit));

interface RefPage {
  file: string;
  url: string;
  ms: number;
  simhash_ms: number;
  doc: ExtractedDocument;
  facets: PageFacets;
}

function runReference(): RefPage[] | null {
  const python = values["ref-python"];
  if (!existsSync(python)) return null;
  const proc = Bun.spawnSync([python, pythonScript("reference_facets.py"), BASE, root], {
    stdin: new TextEncoder().encode(files.join("\n")),
    stderr: "inherit",
  });
  if (proc.exitCode !== 0) throw new Error(`reference_facets.py exited ${proc.exitCode}`);
  return proc.stdout
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RefPage);
}

function timeFacets(pages: readonly { doc: ExtractedDocument; url: string }[]): {
  ms: number[];
  facets: PageFacets[];
} {
  for (const p of pages.slice(0, 10)) scorePage(p.doc, p.url); // warm-up
  const ms: number[] = [];
  const facets: PageFacets[] = [];
  for (const p of pages) {
    const t0 = process.cpuUsage();
    facets.push(scorePage(p.doc, p.url).facets);
    const c = process.cpuUsage(t0);
    ms.push((c.user + c.system) / 1000);
  }
  return { ms, facets };
}

const summary = (ms: readonly number[]) =>
  `mean ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2)}, median ${median(ms).toFixed(2)}`;

const ours = files.map((f) => {
  const url = BASE + f.slice(root.length);
  return { url, doc: extractDocument(readFileSync(f), url) };
});
console.log(`${files.length} Python-docs pages from ${root}`);
for (let round = 1; round <= Number(values.rounds); round++) {
  const ref = runReference();
  const own = timeFacets(ours);
  if (!ref) {
    console.log(
      `round ${round}: ours on our extraction ${summary(own.ms)} ms/page (no reference: ${values["ref-python"]} missing)`,
    );
    continue;
  }
  const onRef = timeFacets(ref);
  const refMs = ref.map((p) => p.ms + p.simhash_ms);
  const same = ref.filter(
    (p, i) => JSON.stringify(p.facets) === JSON.stringify(onRef.facets[i]),
  ).length;
  console.log(
    `round ${round}: reference score_page + simhash64 ${summary(refMs)} ms/page (score_page alone ${summary(ref.map((p) => p.ms))}) | ours (scorePage, SimHash included) on the reference's documents ${summary(onRef.ms)} ` +
      `(median ratio ${(median(refMs) / median(onRef.ms)).toFixed(2)}x faster; identical facets on ${same}/${ref.length}) | ` +
      `ours on our extraction ${summary(own.ms)}`,
  );
}
