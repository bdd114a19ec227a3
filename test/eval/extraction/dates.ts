/**
 * Published dates: ours (src/extract/dates.ts) beside the reference's (its metadata date, then
 * htmldate's fast mode; the reference_dates.py peer in the reference's virtualenv), on pages no
 * facet holdout label covers: the news-article benchmark, the WCXB company pages of the dev split,
 * and the facet tune split (where the hand-labeled date is the truth).
 *
 *   bun test/eval/extraction/dates.ts [--errors] [--ref-python PATH]
 *
 * Prints how often the two agree per page set, and on the labeled pages each one's exact-date
 * accuracy. The facet holdout's pages are never read here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { pythonScript } from "../../bench/python-peers.ts";
import { BENCH_DIR, htmlPath, readLabels } from "../facets/labeled-pages.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    errors: { type: "boolean", default: false },
    "ref-python": { type: "string", default: "/work/ref/.venv/bin/python" },
    company: { type: "string", default: "/work/cache/extraction-company" },
  },
});

interface Page {
  readonly id: string;
  readonly set: string;
  readonly url: string;
  readonly path: string;
  /** The hand-labeled date (tune split), when labeled. */
  readonly gold?: string | null;
}

const labels = readLabels();
const holdout = new Set(labels.filter((r) => r.split === "holdout").map((r) => htmlPath(r)));
const pages = new Map<string, Page>();
const absent: string[] = []; // a labeled file the local copy of its package lacks
const add = (p: Page) => {
  if (!existsSync(p.path)) absent.push(p.id);
  else if (!holdout.has(p.path) && !pages.has(p.path)) pages.set(p.path, p);
};
for (const r of labels.filter((l) => l.split === "tune")) {
  add({ id: r.id, set: "facets-tune", url: r.url, path: htmlPath(r), gold: r.published });
}
const truth = JSON.parse(readFileSync(join(BENCH_DIR, "ground-truth.json"), "utf8")) as Record<
  string,
  { url: string }
>;
for (const [ref, row] of Object.entries(truth)) {
  add({
    id: `bench:${ref}`,
    set: "news",
    url: row.url,
    path: join(BENCH_DIR, "html", `${ref}.html.gz`),
  });
}
const manifest = join(import.meta.dir, "company-pages.json");
if (existsSync(values.company)) {
  const list = JSON.parse(readFileSync(manifest, "utf8")) as {
    pages: { id: string; split: string; url: string }[];
  };
  for (const p of list.pages.filter((x) => x.split === "dev")) {
    const path = join(values.company, "html", `${p.id}.html.gz`);
    add({ id: `wcxb:${p.id}`, set: "company-dev", url: p.url, path });
  }
}

const read = (path: string) => {
  const bytes = readFileSync(path);
  return new Uint8Array(path.endsWith(".gz") ? gunzipSync(bytes) : bytes);
};

const all = [...pages.values()];
const proc = Bun.spawnSync([values["ref-python"], pythonScript("reference_dates.py")], {
  stdin: new TextEncoder().encode(all.map((p) => `${p.id}\t${p.url}\t${p.path}`).join("\n")),
  stderr: "inherit",
});
if (proc.exitCode !== 0) throw new Error(`reference_dates.py exited ${proc.exitCode}`);
const theirs = new Map<string, string | null>();
for (const line of proc.stdout.toString().split("\n").filter(Boolean)) {
  const row = JSON.parse(line) as { id: string; published: string | null };
  theirs.set(row.id, row.published);
}

let cpu = 0;
const rows = all.map((p) => {
  const html = read(p.path);
  const t0 = process.cpuUsage();
  const ours = extractDocument(html, p.url).published;
  const t = process.cpuUsage(t0);
  cpu += (t.user + t.system) / 1000;
  return { ...p, ours, ref: theirs.get(p.id) ?? null };
});

if (absent.length > 0) console.log(`not on disk, left out: ${absent.join(", ")}`);
console.log(
  `${rows.length} pages (facet holdout excluded); extraction CPU ${(cpu / rows.length).toFixed(2)} ms/page`,
);
console.log(
  `${"set".padEnd(14)}${["pages", "agree", "both null", "only ours", "only ref", "differ"].map((h) => h.padStart(10)).join("")}`,
);
for (const set of [...new Set(rows.map((r) => r.set)), "all"]) {
  const sel = rows.filter((r) => set === "all" || r.set === set);
  const n = (f: (r: (typeof rows)[number]) => boolean) => String(sel.filter(f).length).padStart(10);
  console.log(
    set.padEnd(14) +
      String(sel.length).padStart(10) +
      n((r) => r.ours === r.ref) +
      n((r) => r.ours === null && r.ref === null) +
      n((r) => r.ours !== null && r.ref === null) +
      n((r) => r.ours === null && r.ref !== null) +
      n((r) => r.ours !== null && r.ref !== null && r.ours !== r.ref),
  );
}
const dated = rows.filter((r) => r.gold);
const acc = (f: (r: (typeof rows)[number]) => string | null) =>
  (dated.filter((r) => f(r) === r.gold).length / Math.max(dated.length, 1)).toFixed(3);
console.log(
  `\nfacet tune split, ${dated.length} dated pages: exact-date accuracy ours ${acc((r) => r.ours)}, reference ${acc((r) => r.ref)}`,
);
if (values.errors) {
  for (const r of rows.filter((x) => x.ours !== x.ref || (x.gold && x.ours !== x.gold))) {
    const gold = r.gold ? ` gold=${r.gold}` : "";
    console.log(`  ${r.id.slice(0, 60).padEnd(60)} ours=${r.ours} ref=${r.ref}${gold}`);
  }
}
