/**
 * Page dates on WCXB's development split (Web Content Extraction Benchmark v1.0, CC-BY-4.0): our
 * published date (extractDocument's, the one a page's facets carry) against the ground truth's
 * `publish_date`, same calendar day and same month. Never point it at WCXB's test split.
 *
 *   bun test/eval/extraction/wcxb-dates.ts --wcxb /work/wcxb/dev [--htmldate] [--errors]
 *
 * The split's domains are cut in two by a seeded hash: `tune` (what the date rules were tuned on)
 * and `check` (not looked at while tuning). Printed for tune, check and all: accuracy on the pages
 * whose ground truth has a date, the errors by category (no date, a wrong one: which source gave
 * it, and whether it is later — often a modification date — or earlier), and the false-date rate
 * (a date on a page whose ground truth has none) per page type. With `--htmldate`, htmldate's
 * original date (fast and extensive modes) on the same pages, from a venv made with pip under
 * ~/.cache/webcorpus-test/venv-htmldate when missing; its answers are cached beside it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import type { DateSource } from "../../../src/extract/dates.ts";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { pythonScript } from "../../bench/python-peers.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    wcxb: { type: "string", default: "/work/wcxb/dev" },
    htmldate: { type: "boolean", default: false },
    errors: { type: "boolean", default: false },
    seed: { type: "string", default: "wcxb-dates-1" },
  },
});

if (/(^|\/)test\/?$/.test(values.wcxb)) throw new Error("WCXB's test split is never read here");

interface Truth {
  readonly url?: string;
  readonly _internal?: { page_type?: { primary?: string } };
  readonly ground_truth: { publish_date?: string | null };
}

interface Row {
  readonly id: string;
  readonly url: string;
  readonly path: string;
  readonly kind: string;
  readonly half: "tune" | "check";
  readonly gold: string | null;
  ours: string | null;
  source: string | null;
  htmldate?: { fast: string | null; extensive: string | null };
}

/** FNV-1a: the seeded hash that puts a domain in one half. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const OWN_URL =
  /<link[^>]+rel=["']canonical["'][^>]+href=["'](https?:[^"']+)|<meta[^>]+property=["']og:url["'][^>]+content=["'](https?:[^"']+)/i;
const ownUrl = (html: string) => {
  const m = OWN_URL.exec(html);
  return m?.[1] ?? m?.[2] ?? null;
};

const read = (path: string) => {
  const bytes = new Uint8Array(readFileSync(path));
  return path.endsWith(".gz") ? gunzipSync(bytes) : bytes;
};

const domainOf = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, "");

const rows: Row[] = [];
for (const name of readdirSync(join(values.wcxb, "ground-truth")).sort()) {
  if (!name.endsWith(".json")) continue;
  const id = name.slice(0, -5);
  const truth = JSON.parse(readFileSync(join(values.wcxb, "ground-truth", name), "utf8")) as Truth;
  const gold = truth.ground_truth.publish_date?.trim() || null;
  const plain = join(values.wcxb, "html", `${id}.html`);
  const path = existsSync(plain) ? plain : `${plain}.gz`;
  // A few ground truths have no URL: the page's own canonical (or og:url) stands in, as the
  // crawler would know it; else a placeholder.
  const url =
    truth.url || ownUrl(new TextDecoder().decode(read(path))) || `https://unknown.invalid/${id}`;
  rows.push({
    id,
    url,
    path,
    kind: truth._internal?.page_type?.primary ?? "unknown",
    half: fnv1a(`${values.seed}:${domainOf(url)}`) % 2 === 0 ? "tune" : "check",
    gold,
    ours: null,
    source: null,
  });
}

let cpu = 0;
for (const r of rows) {
  const html = read(r.path);
  const t0 = process.cpuUsage();
  const out: { source: DateSource | null } = { source: null };
  const doc = extractDocument(html, r.url, { dateSource: out });
  const t = process.cpuUsage(t0);
  cpu += (t.user + t.system) / 1000;
  r.ours = doc.published;
  r.source = out.source;
}

if (values.htmldate) {
  const cacheDir = join(homedir(), ".cache", "webcorpus-test");
  const venv = join(cacheDir, "venv-htmldate");
  const python = join(venv, "bin", "python");
  const run = (cmd: string[], stdin?: string) => {
    const p = Bun.spawnSync(cmd, {
      stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
      stderr: "pipe",
    });
    if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${p.stderr.toString()}`);
    return p.stdout.toString();
  };
  if (!existsSync(python)) {
    console.error(`making ${venv} (python3 -m venv, pip install htmldate) ...`);
    run(["python3", "-m", "venv", venv]);
    run([python, "-m", "pip", "install", "-q", "htmldate"]);
  }
  const version = run([python, "-c", "import htmldate; print(htmldate.__version__)"]).trim();
  const key = `${version}:${values.wcxb}:${rows.length}`;
  const cacheFile = join(cacheDir, "htmldate-wcxb-dates.json");
  type Peer = Record<string, { fast: string | null; extensive: string | null }>;
  let peer: Peer | null = null;
  if (existsSync(cacheFile)) {
    const cached = JSON.parse(readFileSync(cacheFile, "utf8")) as { key: string; dates: Peer };
    if (cached.key === key) peer = cached.dates;
  }
  if (peer === null) {
    console.error(`htmldate ${version} on ${rows.length} pages (minutes) ...`);
    const out = run(
      [python, pythonScript("htmldate-peer.py")],
      rows.map((r) => `${r.id}\t${r.url}\t${r.path}`).join("\n"),
    );
    const fresh: Peer = {};
    for (const line of out.split("\n").filter(Boolean)) {
      const row = JSON.parse(line) as { id: string; fast: string | null; extensive: string | null };
      fresh[row.id] = { fast: row.fast, extensive: row.extensive };
    }
    writeFileSync(cacheFile, JSON.stringify({ key, dates: fresh }));
    peer = fresh;
  }
  for (const r of rows) r.htmldate = peer[r.id] ?? { fast: null, extensive: null };
  console.log(`htmldate ${version}: find_date(original_date=True), fast and extensive modes`);
}

const pct = (n: number, d: number) => (d === 0 ? "    -" : (n / d).toFixed(3));
const sameDay = (a: string | null, gold: string | null) =>
  a !== null && gold !== null && gold.length === 10 && a === gold;
const sameMonth = (a: string | null, gold: string | null) =>
  a !== null && gold !== null && a.slice(0, 7) === gold.slice(0, 7);

const halves = ["tune", "check", "all"] as const;
const inHalf = (h: (typeof halves)[number]) => rows.filter((r) => h === "all" || r.half === h);

console.log(
  `${rows.length} pages of ${values.wcxb} (${new Set(rows.map((r) => domainOf(r.url))).size} domains); ` +
    `extraction CPU ${(cpu / rows.length).toFixed(1)} ms/page; halves by domain, seed "${values.seed}"`,
);
console.log("\nAccuracy on pages whose ground truth has a date: same day (same month)");
const peers: [string, (r: Row) => string | null][] = [["ours", (r) => r.ours]];
if (values.htmldate) {
  peers.push(["htmldate fast", (r) => r.htmldate?.fast ?? null]);
  peers.push(["htmldate extensive", (r) => r.htmldate?.extensive ?? null]);
}
console.log(`${"".padEnd(20)}${halves.map((h) => h.padStart(22)).join("")}`);
for (const [name, date] of peers) {
  const cells = halves.map((h) => {
    const dated = inHalf(h).filter((r) => r.gold !== null);
    const day = dated.filter((r) => sameDay(date(r), r.gold)).length;
    const month = dated.filter((r) => sameMonth(date(r), r.gold)).length;
    return `${pct(day, dated.length)} (${pct(month, dated.length)}) n=${dated.length}`.padStart(22);
  });
  console.log(name.padEnd(20) + cells.join(""));
}

console.log("\nFalse dates: a date on a page whose ground truth has none");
for (const [name, date] of peers) {
  const cells = halves.map((h) => {
    const bare = inHalf(h).filter((r) => r.gold === null);
    const given = bare.filter((r) => date(r) !== null).length;
    return `${pct(given, bare.length)} (${given}/${bare.length})`.padStart(22);
  });
  console.log(name.padEnd(20) + cells.join(""));
}
const kinds = [...new Set(rows.map((r) => r.kind))].sort();
console.log(
  `ours, by page type: ${kinds
    .map((k) => {
      const bare = rows.filter((r) => r.kind === k && r.gold === null);
      return `${k} ${bare.filter((r) => r.ours !== null).length}/${bare.length}`;
    })
    .join(", ")}`,
);

const bySource = new Map<string, number>();
for (const r of rows.filter((x) => x.gold === null && x.ours !== null)) {
  bySource.set(r.source ?? "none", (bySource.get(r.source ?? "none") ?? 0) + 1);
}
console.log(
  `ours, by source: ${[...bySource]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(", ")}`,
);

type Category = "right" | "missing" | "wrong, later" | "wrong, earlier";
const category = (r: Row): Category => {
  if (r.ours === null) return "missing";
  if (sameDay(r.ours, r.gold) || (r.gold?.length === 7 && sameMonth(r.ours, r.gold)))
    return "right";
  return r.ours > (r.gold ?? "") ? "wrong, later" : "wrong, earlier";
};
console.log("\nOurs on dated pages, by category and by the source that gave the date");
for (const h of halves) {
  const dated = inHalf(h).filter((r) => r.gold !== null);
  const counts = new Map<string, number>();
  for (const r of dated) {
    const key = `${category(r)} <- ${r.source ?? "none"}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const byCat = (c: Category) => dated.filter((r) => category(r) === c).length;
  console.log(
    `${h}: right ${byCat("right")}, missing ${byCat("missing")}, wrong ${byCat("wrong, later")} later + ${byCat("wrong, earlier")} earlier ` +
      `(same month ${dated.filter((r) => category(r).startsWith("wrong") && sameMonth(r.ours, r.gold)).length}) of ${dated.length}`,
  );
  if (h !== "all") continue;
  for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${String(n).padStart(4)}  ${key}`);
  }
}

if (values.errors) {
  console.log("\nErrors (tune half only: the check half is not looked at while tuning)");
  for (const r of rows.filter((x) => x.half === "tune")) {
    const c = r.gold === null ? (r.ours === null ? "right" : "false") : category(r);
    if (c === "right") continue;
    console.log(
      `  ${r.id} ${r.kind.padEnd(13)} ${c.padEnd(15)} ours=${r.ours} (${r.source}) gold=${r.gold}` +
        (r.htmldate ? ` htmldate=${r.htmldate.extensive}` : "") +
        ` ${r.url.slice(0, 90)}`,
    );
  }
}
