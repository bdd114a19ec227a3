/**
 * What rendering costs: the client-side apps of the render tests (React, Vue, docsify; built
 * from npm at run time, served on loopback) crawled with `render: "never"` from every route
 * (`start`: the static path, the same URLs fetched and processed without a browser) and with
 * `render: "auto"` (every page rendered in Chromium), each run a fresh crawl on a fresh data dir
 * in this process. Prints per mode: wall ms and CPU ms per page (this process, its worker
 * threads included, plus every Chromium process it started, sampled from /proc every 200 ms, the sampling's own CPU taken out),
 * pages/min, and the peak memory of the whole process tree (PSS: Chromium's processes share
 * pages, which a sum of their RSS would count again and again); then what a rendered page costs
 * beyond the static path, the browser's start apart (one launch, measured on its own).
 *
 *   bun test/bench/render-cost.ts [--app react|vue|docsify] [--runs N] [--contexts N]
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { findChromium, launchChromium } from "../../src/crawl/render/browser.ts";
import type { RenderMode } from "../../src/crawl/render/detector.ts";
import { tempDir } from "../helpers/app.ts";
import { crawler } from "../helpers/crawl.ts";
import { SPA_NAMES, type SpaName, serveSpa } from "../sites/support/spa-sites.ts";

const { values } = parseArgs({
  options: {
    app: { type: "string" },
    runs: { type: "string", default: "3" },
    contexts: { type: "string", default: "2" },
  },
});
const TICK_MS = 10; // USER_HZ = 100 on Linux

interface Proc {
  readonly ppid: number;
  readonly cpuMs: number;
}

/** Proportional set size: a shared page counts for its share in each process mapping it. */
function pssKb(pid: number): number {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function processes(): Map<number, Proc> {
  const out = new Map<number, Proc>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(name), {
        ppid: Number(fields[1]),
        cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Samples this process's descendants: the CPU each used (its last reading) and the tree's peak PSS. */
class TreeSampler {
  readonly #cpu = new Map<number, number>();
  peakPssMb = 0;
  /** CPU ms the sampling itself took (taken out of the process's figure). */
  ownCpuMs = 0;
  readonly #timer = setInterval(() => this.sample(), 200);

  sample(): void {
    const before = process.threadCpuUsage();
    this.#sample();
    const after = process.threadCpuUsage(before);
    this.ownCpuMs += (after.user + after.system) / 1000;
  }

  #sample(): void {
    const all = processes();
    const tree = new Set([process.pid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, p] of all)
        if (!tree.has(pid) && tree.has(p.ppid)) {
          tree.add(pid);
          grew = true;
        }
    }
    let pss = 0;
    for (const pid of tree) {
      pss += pssKb(pid);
      const p = all.get(pid);
      if (pid !== process.pid && p) this.#cpu.set(pid, Math.max(this.#cpu.get(pid) ?? 0, p.cpuMs));
    }
    this.peakPssMb = Math.max(this.peakPssMb, pss / 1024);
  }

  /** CPU ms of the descendants seen (children reaped between two samples lose <100 ms). */
  childrenCpuMs(): number {
    this.sample();
    clearInterval(this.#timer);
    let sum = 0;
    for (const ms of this.#cpu.values()) sum += ms;
    return sum;
  }
}

interface Run {
  readonly pages: number;
  readonly rendered: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly browserCpuMs: number;
  readonly peakPssMb: number;
}

async function crawlOnce(name: SpaName, mode: RenderMode): Promise<Run> {
  const site = await serveSpa(name);
  const dir = tempDir();
  const c = crawler({ CONNECT_TO: site.connectTo(), RENDER_CONTEXTS: values.contexts ?? "2" }, dir);
  try {
    const sampler = new TreeSampler();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const start = mode === "never" ? { start: site.pages.map((p) => site.url(p.path)) } : {};
    const view = await c.crawl(site.host, { budget: 50, render: mode, ...start });
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const browserCpuMs = sampler.childrenCpuMs();
    return {
      pages: view.progress.fetched,
      rendered: view.render?.rendered ?? 0,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000 - sampler.ownCpuMs + browserCpuMs,
      browserCpuMs,
      peakPssMb: sampler.peakPssMb,
    };
  } finally {
    c.close();
    await site.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** One start and close of the browser alone, as the renderer starts it. */
async function launchOnce(): Promise<{ wallMs: number; cpuMs: number; pssMb: number }> {
  const sampler = new TreeSampler();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const browser = await launchChromium(findChromium(null));
  const context = await browser.newContext();
  await (await context.newPage()).setContent("<p>ready</p>");
  sampler.sample();
  await browser.close();
  const cpu = process.cpuUsage(cpu0);
  return {
    wallMs: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000 - sampler.ownCpuMs + sampler.childrenCpuMs(),
    pssMb: sampler.peakPssMb,
  };
}

const runs = Number(values.runs);
const launches: Awaited<ReturnType<typeof launchOnce>>[] = [];
for (let i = 0; i < runs; i++) launches.push(await launchOnce());
const launch = {
  wallMs: median(launches.map((l) => l.wallMs)),
  cpuMs: median(launches.map((l) => l.cpuMs)),
};
console.error(
  `browser start: ${Math.round(launch.wallMs)} wall ms, ${Math.round(launch.cpuMs)} CPU ms, tree ${Math.round(median(launches.map((l) => l.pssMb)))} MB PSS with one blank page`,
);
const rows: Record<string, string | number>[] = [];
const marginal: Record<string, string | number>[] = [];
for (const name of values.app ? [values.app as SpaName] : SPA_NAMES) {
  if (!SPA_NAMES.includes(name)) throw new Error(`--app: ${SPA_NAMES.join(", ")}`);
  const byMode = new Map<RenderMode, Run[]>();
  for (const mode of ["never", "auto"] as const) {
    const results: Run[] = [];
    for (let i = 0; i < runs; i++) results.push(await crawlOnce(name, mode));
    byMode.set(mode, results);
    const per = (f: (r: Run) => number) => median(results.map((r) => f(r) / Math.max(1, r.pages)));
    rows.push({
      app: name,
      render: mode,
      pages: median(results.map((r) => r.pages)),
      rendered: median(results.map((r) => r.rendered)),
      wall_ms_per_page: Math.round(per((r) => r.wallMs)),
      cpu_ms_per_page: Math.round(per((r) => r.cpuMs)),
      browser_cpu_ms_per_page: Math.round(per((r) => r.browserCpuMs)),
      pages_per_min: Math.round(median(results.map((r) => (r.pages / r.wallMs) * 60_000))),
      peak_pss_mb: Math.round(Math.max(...results.map((r) => r.peakPssMb))),
    });
    console.error(JSON.stringify(rows.at(-1)));
  }
  // Beyond the static crawl of the same routes, the browser's start taken out.
  const stat = byMode.get("never") ?? [];
  const auto = byMode.get("auto") ?? [];
  const rendered = median(auto.map((r) => r.rendered)) || 1;
  const extra = (f: (r: Run) => number, launchPart: number) =>
    Math.round((median(auto.map(f)) - median(stat.map(f)) - launchPart) / rendered);
  marginal.push({
    app: name,
    rendered,
    extra_wall_ms_per_rendered_page: extra((r) => r.wallMs, launch.wallMs),
    extra_cpu_ms_per_rendered_page: extra((r) => r.cpuMs, launch.cpuMs),
  });
}
console.table(rows);
console.table(marginal);
