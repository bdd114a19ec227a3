/**
 * The crawl scheduler on the main thread: leases queued jobs (oldest first, up to WORKER_JOBS at
 * once, different domains), runs each from its ledger, and owns what the jobs share: the worker
 * pool, the per-host throttle and the support-file fetcher. A job whose worker died (lease
 * expired, or its owner's process on this host is gone) is taken over and resumed.
 */
import { hostname } from "node:os";
import { type Config, disableProxies } from "../config.ts";
import type { Db } from "../db/client.ts";
import { expireLeases, leaseJob, runningOwners } from "../db/jobs-repo.ts";
import { isoNow } from "../services/clock.ts";
import { Fetcher, fetcherOptions } from "./fetcher.ts";
import type { PageIndexer } from "./job-run.ts";
import { JobRunner } from "./job-runner.ts";
import { HostThrottle } from "./politeness.ts";
import { CrawlPool } from "./worker-pool.ts";

export interface SchedulerDeps {
  readonly config: Config;
  readonly db: Db;
  readonly indexer?: PageIndexer | null;
  readonly embeddingBacklog?: ((jobId: string) => number) | null;
  readonly log?: (message: string) => void;
  /** Extra trusted CA certificates (tests with self-signed TLS sites). */
  readonly ca?: readonly string[];
}

export interface SchedulerOptions {
  /** Run this job only (`webcorpus crawl`); other queued jobs are left to the service. */
  readonly only?: string;
}

const HOST = hostname();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class CrawlScheduler {
  readonly owner = `${HOST}:${process.pid}:${Math.random().toString(16).slice(2, 10)}`;
  readonly pool: CrawlPool;
  readonly throttle: HostThrottle;
  readonly #deps: SchedulerDeps;
  readonly #options: SchedulerOptions;
  readonly #fetcher: Fetcher;
  readonly #runners = new Map<string, { runner: JobRunner; done: Promise<void> }>();
  #timer: ReturnType<typeof setInterval> | null = null;
  #stopped = false;

  constructor(deps: SchedulerDeps, options: SchedulerOptions = {}) {
    this.#deps = deps;
    this.#options = options;
    const { config } = deps;
    disableProxies();
    this.throttle = HostThrottle.fromConfig(config);
    const size = config.workerProcesses || navigator.hardwareConcurrency || 1;
    this.pool = new CrawlPool(config, {
      size,
      pacer: this.throttle,
      ...(deps.ca ? { ca: deps.ca } : {}),
    });
    this.#fetcher = new Fetcher(
      fetcherOptions(config, { pacer: this.throttle, ...(deps.ca ? { ca: deps.ca } : {}) }),
    );
  }

  get running(): readonly string[] {
    return [...this.#runners.keys()];
  }

  start(): void {
    this.#takeOverDeadOwners();
    this.tick();
    this.#timer = setInterval(() => this.tick(), 1000);
  }

  /** Leases what it can run now (also called when a crawl is queued). */
  tick(): void {
    const { config, db } = this.#deps;
    while (!this.#stopped && this.#runners.size < config.workerJobs) {
      const job = leaseJob(db, this.owner, config.jobLeaseS, isoNow(), {
        exclude: [...this.#runners.keys()],
        ...(this.#options.only ? { only: this.#options.only } : {}),
      });
      if (!job) return;
      const log =
        this.#deps.log ?? ((m: string) => console.error(`${new Date().toISOString()} ${m}`));
      const runner = new JobRunner(
        {
          config,
          db,
          pool: this.pool,
          throttle: this.throttle,
          fetcher: this.#fetcher,
          owner: this.owner,
          indexer: this.#deps.indexer ?? null,
          embeddingBacklog: this.#deps.embeddingBacklog ?? null,
          log,
        },
        job,
      );
      log(
        `job ${job.id}: ${job.state === "running" && job.resumes > 0 ? "resuming" : "starting"} ${job.domain}`,
      );
      const done = runner.execute().finally(() => {
        this.#runners.delete(job.id);
        if (!this.#stopped) this.tick();
      });
      this.#runners.set(job.id, { runner, done });
    }
  }

  /** Waits until the job has left this scheduler (ended, or stopped). */
  async waitFor(jobId: string): Promise<void> {
    await this.#runners.get(jobId)?.done;
  }

  /** Stops intake; running jobs finish their in-flight pages and stay resumable. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    for (const { runner } of this.#runners.values()) runner.stop();
    await Promise.all([...this.#runners.values()].map((r) => r.done));
    await this.pool.close();
  }

  /** Jobs of a process on this host that is gone are taken over at once, not after the lease. */
  #takeOverDeadOwners(): void {
    for (const owner of runningOwners(this.#deps.db)) {
      const [host, pid] = owner.split(":");
      if (
        host === HOST &&
        pid !== undefined &&
        Number(pid) !== process.pid &&
        !alive(Number(pid))
      ) {
        expireLeases(this.#deps.db, `${host}:${pid}:`);
      }
    }
  }
}
