/**
 * PDF extraction against pdftotext (poppler-utils, installed only for this benchmark) over a
 * directory of real PDFs: word F1 of our text against `pdftotext -layout`, our CPU ms per page,
 * pdftotext's wall ms per page; with --hand DIR, F1 against hand-checked page texts
 * (`<name>.p<N>.txt`: page N of `<name>.pdf`, read and corrected by hand).
 *
 *   bun test/bench/pdf-extraction.ts --dir /work/pdfs/set [--hand test/eval/extraction/pdf-hand]
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { extractPdf } from "../../src/extract/pdf/extract-pdf.ts";
import { pdfMarkdown } from "../../src/extract/pdf/pdf-markdown.ts";
import { readPdf } from "../../src/extract/pdf/pdf-reader.ts";
import { DEFAULT_PDF_CAPS } from "../../src/extract/pdf/pdf-source.ts";
import { markdownToText } from "../../src/extract/plain-text.ts";

const { values } = parseArgs({
  options: { dir: { type: "string" }, hand: { type: "string" } },
});
if (!values.dir) throw new Error("--dir DIR (a directory of .pdf files) is required");
const dir = values.dir;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/** Bag-of-words F1 of `got` against `want`. */
function f1(got: string, want: string): number {
  const counts = new Map<string, number>();
  const w = words(want);
  for (const t of w) counts.set(t, (counts.get(t) ?? 0) + 1);
  const g = words(got);
  let hit = 0;
  for (const t of g) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      hit++;
      counts.set(t, n - 1);
    }
  }
  if (hit === 0) return 0;
  const p = hit / g.length;
  const r = hit / w.length;
  return (2 * p * r) / (p + r);
}

/** F1 over word pairs: order-sensitive (interleaved columns break the pairs). */
function bigramF1(got: string, want: string): number {
  const pairs = (t: string) => {
    const w = words(t);
    return w
      .slice(1)
      .map((x, i) => `${w[i]}_${x}`)
      .join(" ");
  };
  return f1(pairs(got), pairs(want));
}

const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

function pdftotext(file: string, args: string[]): { text: string; ms: number } {
  const t = performance.now();
  const out = Bun.spawnSync(["pdftotext", ...args, file, "-"], {
    stdout: "pipe",
    stderr: "ignore",
  });
  if (out.exitCode !== 0)
    throw new Error(`pdftotext failed on ${file} (is poppler-utils installed?)`);
  return { text: out.stdout.toString(), ms: performance.now() - t };
}

const files = readdirSync(dir)
  .filter((f) => f.endsWith(".pdf"))
  .sort();
// pdf.js compiles on the first document: warm it up so the first row is not charged for it.
if (files[0]) await extractPdf(await Bun.file(join(dir, files[0])).bytes(), "https://example.com/");

const rows: string[] = [];
let pagesAll = 0;
let cpuAll = 0;
let peerMsAll = 0;
const scores: number[] = [];
for (const name of files) {
  const file = join(dir, name);
  const bytes = await Bun.file(file).bytes();
  const t = cpu();
  const r = await extractPdf(bytes, `https://example.com/${name}`);
  const ms = cpu() - t;
  if (!r.ok) {
    rows.push(`| ${name} | – | – | error: ${r.reason} | – | – |`);
    continue;
  }
  const pages = r.doc.pdf?.pagesRead ?? 1;
  const last = ["-l", String(pages)];
  const peer = pdftotext(file, ["-layout", ...last]);
  const score = f1(r.doc.text, peer.text);
  scores.push(score);
  pagesAll += pages;
  cpuAll += ms;
  peerMsAll += peer.ms;
  rows.push(
    `| ${name} | ${pages} | ${r.doc.words} | ${score.toFixed(3)} | ${(ms / pages).toFixed(1)} | ${(peer.ms / pages).toFixed(1)} |`,
  );
}
const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
console.log(
  "| PDF | pages | words | F1 vs pdftotext -layout | our CPU ms/page | pdftotext wall ms/page |",
);
console.log("|---|---:|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
console.log(
  `| **all ${scores.length}** | ${pagesAll} | | **${mean.toFixed(3)}** (mean) | **${(cpuAll / pagesAll).toFixed(1)}** | ${(peerMsAll / pagesAll).toFixed(1)} |`,
);
console.log(`\ncaps: ${JSON.stringify(DEFAULT_PDF_CAPS)}`);

if (values.hand) {
  // Hand-checked pages: ours and pdftotext's (plain reading order, and -layout) for one page.
  console.log(
    "\n| hand-checked page | F1 ours | pdftotext | pdftotext -layout | pair F1 ours | pdftotext | -layout |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const ref of readdirSync(values.hand)
    .filter((f) => f.endsWith(".txt"))
    .sort()) {
    const m = /^(.+)\.p(\d+)\.txt$/.exec(ref);
    if (!m) continue;
    const [, stem, n] = m as unknown as [string, string, string];
    const file = join(dir, `${stem}.pdf`);
    const want = await Bun.file(join(values.hand, ref)).text();
    // Our text of page N alone, its running heads and body size judged on the whole document.
    const source = await readPdf(await Bun.file(file).bytes());
    const onlyPage = markdownToText(pdfMarkdown(source.pages, Number(n) - 1).markdown);
    const range = ["-f", n, "-l", n];
    const plain = pdftotext(file, range).text;
    const layout = pdftotext(file, ["-layout", ...range]).text;
    console.log(
      `| ${basename(ref)} | ${[f1, bigramF1].flatMap((f) => [onlyPage, plain, layout].map((t) => f(t, want).toFixed(3))).join(" | ")} |`,
    );
  }
}
