/**
 * CPU ms per page of extraction, by stage: parse (linkedom), select (container or main-content
 * selection and pruning), markdown (turndown and our rules), rest (decoding, metadata, links,
 * dates, plain text, words). Pages: the Python and PostgreSQL docs of the Debian doc packages
 * (every page by default; --limit N: a seeded sample of N pages per directory).
 * With --reference, the reference's own bench (/work/ref/bench/extraction_pipeline.py, its venv
 * /work/ref/.venv) runs on the same directories right after, and the ratio of the medians of the
 * extraction stage is printed.
 *
 *   bun test/bench/extraction-speed.ts [DIR ...] [--limit N] [--rounds 3] [--reference]
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { extractDocument } from "../../src/extract/extract-document.ts";
import { emptyTimings, type Stage, type StageTimings } from "../../src/extract/stage-clock.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const DOCS = "/work/cache/root/usr/share/doc";
const dirs = args.filter(
  (a, i) =>
    !a.startsWith("--") && !args[i - 1]?.startsWith("--l") && !args[i - 1]?.startsWith("--r"),
);
const directories =
  dirs.length > 0 ? dirs : [`${DOCS}/python3.11/html`, `${DOCS}/postgresql-doc-15/html`];
const limit = Number(option("--limit", "100000"));
const rounds = Number(option("--rounds", "3"));

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false }); // broken symlinks are skipped
    if (st?.isDirectory()) out.push(...htmlFiles(path));
    else if (st?.isFile() && /\.htm/.test(name)) out.push(path);
  }
  return out.sort();
}

/** mulberry32: the same sample on every run. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return items
    .map((x) => [random(), x] as const)
    .sort((p, q) => p[0] - q[0])
    .map(([, x]) => x);
}

const STAGES: Stage[] = ["parse", "select", "markdown", "rest"];
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

const ourMedians = new Map<string, number>();
for (const dir of directories) {
  if (!existsSync(dir)) {
    console.log(`${dir}: missing, skipped`);
    continue;
  }
  const files = shuffled(htmlFiles(dir), 1).slice(0, limit);
  const pages = files.map((f) => ({
    url: `https://docs.example.com/${relative(dir, f)}`,
    body: new Uint8Array(readFileSync(f)),
  }));
  for (const p of pages) extractDocument(p.body, p.url); // warm-up: JIT, caches
  // Per page, the best round of each stage (the least disturbed by other work on the machine).
  const best: StageTimings[] = pages.map(() => ({
    parse: 1e9,
    select: 1e9,
    markdown: 1e9,
    rest: 1e9,
  }));
  for (let r = 0; r < rounds; r++) {
    pages.forEach((p, i) => {
      const t = emptyTimings();
      extractDocument(p.body, p.url, { contentType: "text/html; charset=utf-8", timings: t });
      const b = best[i] as StageTimings;
      for (const s of STAGES) b[s] = Math.min(b[s], t[s]);
    });
  }
  console.log(`\n${dir}: ${pages.length} pages, best of ${rounds} rounds, CPU ms/page`);
  console.log(
    `${"stage".padEnd(10)}${["mean", "p50", "p95", "max"].map((h) => h.padStart(9)).join("")}`,
  );
  const totals = best.map((b) => STAGES.reduce((s, k) => s + b[k], 0));
  for (const s of STAGES) {
    const xs = best.map((b) => b[s]);
    console.log(
      `${s.padEnd(10)}${[mean(xs), quantile(xs, 0.5), quantile(xs, 0.95), Math.max(...xs)].map((v) => v.toFixed(2).padStart(9)).join("")}`,
    );
  }
  console.log(
    `${"total".padEnd(10)}${[mean(totals), quantile(totals, 0.5), quantile(totals, 0.95), Math.max(...totals)].map((v) => v.toFixed(2).padStart(9)).join("")}`,
  );
  ourMedians.set(dir, quantile(totals, 0.5));
}

if (args.includes("--reference")) {
  const python = "/work/ref/.venv/bin/python";
  const script = "/work/ref/bench/extraction_pipeline.py";
  if (!existsSync(python)) {
    console.log("\nreference venv missing (cd /work/ref && bash scripts/install.sh)");
  } else {
    for (const dir of ourMedians.keys()) {
      const p = Bun.spawnSync(
        [python, script, dir, "--limit", String(limit), "--rounds", String(rounds)],
        { cwd: "/work/ref" },
      );
      const out = p.stdout.toString();
      console.log(`\nreference (${script}) on ${dir}:\n${out.trim()}`);
      const m = /^\s*extract\s.*?p50\s+([\d.]+)/m.exec(out);
      const ours = ourMedians.get(dir) ?? 0;
      if (m)
        console.log(
          `median extraction CPU ms/page: webcorpus ${ours.toFixed(2)}, reference ${m[1]}: ratio ${(ours / Number(m[1])).toFixed(2)}`,
        );
      else console.log(p.stderr.toString().slice(-2000));
    }
  }
}
