/**
 * A crawl worker's life on a cold VM: a fresh process runs the workers' page stage (workerStage:
 * extract, facets, chunks, hashes) over the first N pages of a doc site, with the workers'
 * periodic full collection, and prints the whole process's CPU per page (every thread: the JIT's
 * compiler threads and the GC's helpers included), user and system apart, and its peak RSS. A
 * crawl of a 500-page site gives each of two workers ~250 pages, so the JIT's compiles and the
 * collections weigh there as they do here, unlike in crawl-stages.ts's warmed-up rounds.
 *
 * Variants run in alternation, each round in fresh processes, and medians are printed:
 *   --gc sweep|bun|none   the collection every --every pages: bun:jsc gcAndSweep() (the workers'),
 *                         Bun.gc(true), or none
 *   --ftl-parse           let JSC's top tier compile htmlparser2's tokenizer loop (the workers
 *                         keep it at DFG with bun:jsc noFTL)
 *
 *   bun test/bench/cold-worker.ts [--site python|postgres|handbook] [--pages 250] [--rounds 4]
 *                                 [--variants "sweep,bun"] [--every 30]
 *
 * A variant is a comma-separated item of --variants: `sweep`, `bun`, `none`, optionally with
 * `+ftl` (e.g. "sweep,sweep+ftl").
 */
import { gcAndSweep, noFTL } from "bun:jsc";
import { parseArgs } from "node:util";
import { Tokenizer } from "htmlparser2";
import { benchSite, sitePages, workerStage } from "./support/doc-pages.ts";
import { median } from "./support/stats.ts";

const { values } = parseArgs({
  options: {
    site: { type: "string", default: "python" },
    pages: { type: "string", default: "250" },
    rounds: { type: "string", default: "4" },
    variants: { type: "string", default: "sweep,bun" },
    every: { type: "string", default: "30" },
    child: { type: "string" },
  },
});

interface Sample {
  readonly cpu: number;
  readonly user: number;
  readonly sys: number;
  readonly rssMb: number;
}

if (values.child) {
  const [gc = "sweep", ftl] = values.child.split("+");
  if (ftl !== "ftl") noFTL((Tokenizer.prototype as unknown as { parse: () => void }).parse);
  const pages = sitePages(benchSite(values.site)).slice(0, Number(values.pages));
  const every = Number(values.every);
  const c0 = process.cpuUsage();
  const stage = workerStage();
  let n = 0;
  for (const page of pages) {
    stage.run(page);
    if (++n % every !== 0) continue;
    if (gc === "sweep") gcAndSweep();
    else if (gc === "bun") Bun.gc(true);
  }
  const c = process.cpuUsage(c0);
  const sample: Sample = {
    cpu: (c.user + c.system) / 1000 / pages.length,
    user: c.user / 1000 / pages.length,
    sys: c.system / 1000 / pages.length,
    rssMb: process.resourceUsage().maxRSS / 1024,
  };
  console.log(JSON.stringify(sample));
} else {
  const variants = (values.variants ?? "").split(",").filter(Boolean);
  const samples = new Map<string, Sample[]>(variants.map((v) => [v, []]));
  for (let round = 1; round <= Number(values.rounds); round++) {
    // Alternate who goes first: neither always gets the quieter minute.
    const order = variants.map((_, i) => variants[(i + round - 1) % variants.length] as string);
    for (const variant of order) {
      const proc = Bun.spawnSync([
        process.execPath,
        import.meta.path,
        "--child",
        variant,
        "--site",
        values.site ?? "python",
        "--pages",
        values.pages ?? "250",
        "--every",
        values.every ?? "30",
      ]);
      if (proc.exitCode !== 0) throw new Error(`${variant}: ${proc.stderr.toString()}`);
      const sample = JSON.parse(proc.stdout.toString().trim().split("\n").at(-1) ?? "{}") as Sample;
      samples.get(variant)?.push(sample);
      console.log(
        `round ${round} ${variant}: ${sample.cpu.toFixed(2)} CPU ms/page (user ${sample.user.toFixed(2)}, system ${sample.sys.toFixed(2)}), peak RSS ${sample.rssMb.toFixed(0)} MB`,
      );
    }
  }
  for (const [variant, xs] of samples) {
    const cpu = xs.map((x) => x.cpu);
    console.log(
      `${variant}: median ${median(cpu).toFixed(2)} CPU ms/page (${Math.min(...cpu).toFixed(2)}-${Math.max(...cpu).toFixed(2)}), system ${median(xs.map((x) => x.sys)).toFixed(2)}, peak RSS ${median(xs.map((x) => x.rssMb)).toFixed(0)} MB`,
    );
  }
}
