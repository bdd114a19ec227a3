/**
 * CPU and memory of a running process tree, read from /proc every 100 ms (Linux): CPU seconds per
 * thread kind of the root process (Bun names its threads: `bun` is the main thread, `Worker` the
 * crawl workers, `HTTP Client` Bun's fetch thread, `JITWorker`, `HeapHelper` …), CPU of the
 * root's own threads against its child processes (the reference's processing pool), and the
 * peak of the tree's summed RSS. A thread or child that ends between samples loses at most its
 * last 100 ms; the process's rusage at exit gives the exact total.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICK_S = 0.01; // USER_HZ is 100 on Linux
const PAGE_KB = 4;

export interface CpuSnapshot {
  /** CPU seconds of the root process's threads, by thread kind. */
  readonly threads: Record<string, number>;
  /** CPU seconds of the root process (all threads). */
  readonly main: number;
  /** CPU seconds of the live and ended child processes (not the root). */
  readonly children: number;
}

export interface TreeUsage {
  /** At the last sample. */
  readonly last: CpuSnapshot;
  /** Peak of the summed RSS of the tree, in MB. */
  readonly peakRssMb: number;
  /** The last sample taken at or before a time (Date.now()); the first sample if none. */
  at(time: number): CpuSnapshot;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** utime + stime of a /proc stat line, in seconds. */
function statCpu(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_S;
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const tid of readdirSafe(`/proc/${pid}/task`)) {
    const list = read(`/proc/${pid}/task/${tid}/children`);
    if (list) for (const c of list.trim().split(/\s+/)) if (c) out.push(Number(c));
  }
  return out;
}

function readdirSafe(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

const kindOf = (name: string) => name.replace(/\s*\d+$/, "").trim() || "other";

export class ProcSampler {
  readonly #root: number;
  readonly #threadCpu = new Map<string, { kind: string; cpu: number }>();
  readonly #childCpu = new Map<number, number>();
  #peakKb = 0;
  readonly #timeline: { at: number; snap: CpuSnapshot }[] = [];
  #timer: ReturnType<typeof setInterval>;

  constructor(root: number, intervalMs = 100) {
    this.#root = root;
    this.sample();
    this.#timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): void {
    const root = this.#root;
    let rssKb = 0;
    for (const tid of readdirSafe(`/proc/${root}/task`)) {
      const stat = read(`/proc/${root}/task/${tid}/stat`);
      if (!stat) continue;
      const name =
        Number(tid) === root ? "main" : kindOf(read(`/proc/${root}/task/${tid}/comm`) ?? "");
      this.#threadCpu.set(tid, { kind: name, cpu: statCpu(stat) });
    }
    rssKb += rssOf(root);
    const todo = childrenOf(root);
    for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
      const stat = read(`/proc/${pid}/stat`);
      if (!stat) continue;
      this.#childCpu.set(pid, statCpu(stat));
      rssKb += rssOf(pid);
      todo.push(...childrenOf(pid));
    }
    this.#peakKb = Math.max(this.#peakKb, rssKb);
    this.#timeline.push({ at: Date.now(), snap: this.snapshot() });
  }

  snapshot(): CpuSnapshot {
    const threads: Record<string, number> = {};
    let main = 0;
    for (const { kind, cpu } of this.#threadCpu.values()) {
      threads[kind] = (threads[kind] ?? 0) + cpu;
      main += cpu;
    }
    let children = 0;
    for (const cpu of this.#childCpu.values()) children += cpu;
    return { threads, main, children };
  }

  stop(): TreeUsage {
    clearInterval(this.#timer);
    const timeline = this.#timeline;
    const first = timeline[0]?.snap ?? this.snapshot();
    return {
      last: this.snapshot(),
      peakRssMb: this.#peakKb / 1024,
      at(time) {
        let found = first;
        for (const t of timeline) if (t.at <= time) found = t.snap;
        return found;
      },
    };
  }
}

function rssOf(pid: number): number {
  const statm = read(`/proc/${pid}/statm`);
  return statm ? Number(statm.split(" ")[1]) * PAGE_KB : 0;
}
