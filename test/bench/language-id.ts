/**
 * Language identifiers measured on real pages: the Debian handbook's 26 languages (every 4th
 * page of each, 2,000-character samples as locale.ts reads them and 300-character windows as
 * its partial-translation check reads them) and, with --eval, the labeled eval pages.
 *
 *   mkdir -p /tmp/lb && (cd /tmp/lb && bun add eld tinyld franc franc-min cld3-asm lande)
 *   bun test/bench/language-id.ts --from /tmp/lb [--dump samples.json]
 *
 * Truth for a sample is its directory's language, or English when the sample is the page's
 * untranslated English text (over 90% of its bytes in 3-word runs the en-US page also has);
 * mixed samples (10-90%) are left out. `--dump` writes the
 * samples for measuring the reference's py3langid on the same texts. `--labels` also runs
 * locale.ts with each detector on the labeled eval pages (text taken from the whole body, not
 * the extractor's: a proxy; the acceptance figure is test/eval/facets/evaluate.ts). Each candidate is timed
 * over all samples (CPU ms per call, after one warm-up pass).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { parseHTML } from "linkedom";
import { defaultLanguageDetector } from "../../src/facets/language-detector.ts";
import type { LanguageDetector } from "../../src/facets/language-id.ts";
import { detectionSample, pageLocale, sameLanguage } from "../../src/facets/locale.ts";
import { candidates } from "./language-id-candidates.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    from: { type: "string" },
    dump: { type: "string" },
    handbook: { type: "string", default: "/work/cache/root/usr/share/doc/debian-handbook/html" },
    every: { type: "string", default: "4" },
    labels: { type: "boolean", default: false },
  },
});

interface Sample {
  readonly id: string;
  readonly truth: string;
  readonly text: string;
}

function pageText(html: string): string {
  const { document } = parseHTML(html);
  for (const el of document.querySelectorAll("ul.docnav, script, style, .navheader, .navfooter")) {
    el.remove();
  }
  return (document.body?.textContent ?? "").replace(/\s+/g, " ").trim();
}

function shingles(text: string): Set<string> {
  const w = text.toLowerCase().split(" ");
  const out = new Set<string>();
  for (let i = 0; i + 3 <= w.length; i++) out.add(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  return out;
}

/** Share of the sample's UTF-8 bytes in 3-word runs that the English page also has (bytes, so
 * that a word of Korean or Chinese weighs about what an English word does). */
function englishShare(sample: string, english: Set<string>): number {
  const w = sample.toLowerCase().split(" ");
  const marked = new Uint8Array(w.length);
  for (let i = 0; i + 3 <= w.length; i++) {
    if (english.has(`${w[i]} ${w[i + 1]} ${w[i + 2]}`)) marked.fill(1, i, i + 3);
  }
  let shared = 0;
  let total = 0;
  w.forEach((x, i) => {
    const n = Buffer.byteLength(x);
    total += n;
    if (marked[i]) shared += n;
  });
  return shared / Math.max(total, 1);
}

/** The sample's truth: its page's language, English when it is the untranslated English text,
 * null when mixed. */
function truthOf(lang: string, sample: string, english: Set<string>): string | null {
  const own = lang.startsWith("zh-") ? "zh" : (lang.split("-")[0] as string);
  if (lang === "en-US") return "en";
  const share = englishShare(sample, english);
  if (share > 0.9) return "en";
  return share < 0.1 ? own : null;
}

function handbookSamples(root: string, every: number): { full: Sample[]; windows: Sample[] } {
  const langs = readdirSync(root).sort();
  const files = readdirSync(join(root, "en-US"))
    .filter((f) => f.endsWith(".html"))
    .sort()
    .filter((_, i) => i % every === 0);
  const english = new Map(
    files.map((f) => [f, shingles(pageText(readFileSync(join(root, "en-US", f), "utf8")))]),
  );
  const full: Sample[] = [];
  const windows: Sample[] = [];
  for (const lang of langs) {
    for (const f of files) {
      const text = pageText(readFileSync(join(root, lang, f), "utf8"));
      if (text.length < 200) continue;
      const en = english.get(f) ?? new Set<string>();
      const sample = detectionSample(text);
      const mid = Math.floor(text.length / 2);
      const window = text.slice(mid, mid + 300);
      const t1 = truthOf(lang, sample, en);
      if (t1) full.push({ id: `${lang}/${f}`, truth: t1, text: sample });
      const t2 = truthOf(lang, window, en);
      if (t2) windows.push({ id: `${lang}/${f}#w`, truth: t2, text: window });
    }
  }
  return { full, windows };
}

function measure(det: LanguageDetector, samples: readonly Sample[]) {
  for (const s of samples.slice(0, 50)) det.detect(s.text); // warm-up
  let strict = 0;
  let same = 0;
  let confident = 0;
  let confidentWrong = 0;
  const wrong = new Map<string, number>();
  const t0 = process.cpuUsage();
  const results = samples.map((s) => det.detect(s.text));
  const cpu = process.cpuUsage(t0);
  samples.forEach((s, i) => {
    const r = results[i];
    const lang = r?.lang ?? "-";
    if (lang === s.truth) strict++;
    if (r && sameLanguage(lang, s.truth)) same++;
    else wrong.set(`${s.truth}->${lang}`, (wrong.get(`${s.truth}->${lang}`) ?? 0) + 1);
    if (r && r.prob >= 0.9) {
      confident++;
      if (!sameLanguage(lang, s.truth)) confidentWrong++;
    }
  });
  const ms = (cpu.user + cpu.system) / 1000 / samples.length;
  const top = [...wrong].sort((a, b) => b[1] - a[1]).slice(0, 6);
  return {
    strict: strict / samples.length,
    same: same / samples.length,
    confident,
    confidentWrong,
    ms,
    top,
  };
}

const { full, windows } = handbookSamples(values.handbook, Number(values.every));
const langs = new Set(full.map((s) => s.truth));
console.log(
  `handbook: ${full.length} samples of ≤2000 chars (${langs.size} languages in truth), ${windows.length} windows of 300`,
);
if (values.dump) writeFileSync(values.dump, JSON.stringify({ full, windows }));
const dets: [string, LanguageDetector][] = [
  ["shipped (language-detector.ts)", defaultLanguageDetector()],
  ...(values.from ? await candidates(values.from) : []),
];
for (const [name, det] of dets) {
  for (const [label, samples] of [
    ["2000", full],
    ["300", windows],
  ] as const) {
    const m = measure(det, samples);
    console.log(
      `${name.padEnd(30)} ${label.padStart(4)} chars: accuracy ${m.strict.toFixed(3)}, same-language ${m.same.toFixed(3)}, ` +
        `p>=0.9 on ${m.confident} (${m.confidentWrong} wrong), ${m.ms.toFixed(3)} ms/call; errors ${m.top.map(([k, n]) => `${k}:${n}`).join(" ")}`,
    );
  }
}

interface LabelRow {
  source: string;
  ref: string;
  url: string;
  locale: string;
}

function labelHtml(row: LabelRow): string {
  if (row.source === "pages") return readFileSync(`test/eval/facets/pages/${row.ref}`, "utf8");
  if (row.source === "bench") {
    const gz = readFileSync(`/work/shared/bench/extraction-articles/html/${row.ref}.html.gz`);
    return new TextDecoder().decode(gunzipSync(gz));
  }
  return readFileSync(`/work/cache/root/${row.ref}`, "utf8");
}

if (values.labels) {
  const rows = readFileSync("test/eval/facets/labels.jsonl", "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LabelRow);
  const pages = rows.map((row) => {
    const html = labelHtml(row);
    const lang = /<html[^>]*\slang=["']?([^"' >]+)/i.exec(html)?.[1] ?? null;
    return { row, lang, text: pageText(html).slice(0, 8000) };
  });
  for (const [name, det] of dets) {
    let ok = 0;
    let okLang = 0;
    const wrong: string[] = [];
    for (const { row, lang, text } of pages) {
      const got = pageLocale({ declared: lang, text, url: row.url }, det, []);
      if (got === row.locale) ok++;
      else wrong.push(`${row.ref.slice(-40)} ${row.locale}->${got}`);
      if (got.split("-")[0] === row.locale.split("-")[0]) okLang++;
    }
    console.log(
      `${name.padEnd(30)} labeled pages: locale ${(ok / pages.length).toFixed(3)}, language ${(okLang / pages.length).toFixed(3)} of ${pages.length}; wrong: ${wrong.slice(0, 8).join("; ")}`,
    );
  }
}
