/**
 * Runs one crawl job from its ledger: discovery (or resume), `maxConcurrency` visits at a time
 * through the worker pool, a heartbeat that renews the lease and notices cancels, and the final
 * state: never `completed` with work left, never stuck `running`.
 */
import { domainSimhashes } from "../db/crawl-repo.ts";
import {
  bucketCounts,
  fetchedCount,
  fetchedOutcomes,
  isCancelRequested,
  type JobRow,
  renewLease,
  updateJob,
} from "../db/jobs-repo.ts";
import { ledgerUrls, moveBucket, pendingUrls } from "../db/ledger-repo.ts";
import { counted } from "../plural.ts";
import { isoNow } from "../services/clock.ts";
import { recomputeCitations } from "./citations.ts";
import { discover } from "./job-discovery.ts";
import { indexedTooLittle } from "./job-health.ts";
import { type JobDeps, JobRun } from "./job-run.ts";
import { takeScreenshots } from "./job-screenshots.ts";
import { settleAllCanonicals, settleCanonical, visit } from "./page-visit.ts";
import { closeRenderer } from "./render/render-visit.ts";
import { RobotsReader } from "./robots-cache.ts";
import { TrapGuard, trapLimits } from "./trap-guard.ts";
import { inScope } from "./urls.ts";

export class LeaseLost extends Error {
  override readonly name = "LeaseLost";
}

export class JobRunner {
  readonly run: JobRun;
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #lastRenew = Date.now();

  constructor(deps: JobDeps, job: JobRow) {
    const { db } = deps;
    this.run = new JobRun(
      deps,
      job,
      ledgerUrls(db, job.id),
      fetchedCount(db, job.id),
      domainSimhashes(db, job.domain),
    );
    this.run.traps = new TrapGuard(trapLimits(deps.config));
    this.run.robots = new RobotsReader({
      fetcher: deps.fetcher,
      userAgent: deps.config.userAgent,
      refuseHop: (url) => (inScope(url, job.domain) ? null : "outside the crawl's scope"),
    });
  }

  get id(): string {
    return this.run.job.id;
  }

  /** Stops taking URLs; in-flight pages finish and the job is left to resume on the next start. */
  stop(): void {
    this.run.stopping = true;
    this.run.wake();
  }

  async execute(): Promise<void> {
    const { run } = this;
    const { db, log } = run.deps;
    try {
      this.#startHeartbeat();
      if (run.known.size > 0) {
        for (const e of pendingUrls(db, run.job.id)) run.frontier.push(e);
      } else {
        await discover(run);
      }
      await Promise.all(
        Array.from({ length: Math.max(1, run.deps.config.maxConcurrency) }, () => this.#work()),
      );
      await closeRenderer(run);
      if (run.failure) throw run.failure;
      if (run.lost) throw new LeaseLost();
      // Pages still waiting for a canonical never visited (a cancel): kept under their own URL.
      // A stopped job leaves them pending, fetched again when it resumes.
      if (!run.stopping)
        settleAllCanonicals(
          run,
          run.cancelled ? "the job was cancelled first" : "the job ended first",
        );
      if (run.stopping) {
        log(
          `job ${run.job.id}: stopped with ${run.frontier.size} URLs pending; it resumes on the next start`,
        );
        updateJob(db, run.job.id, {
          fetched: run.fetched,
          info: JSON.stringify(run.info),
          leaseExpiresAt: 0,
        });
        return;
      }
      await this.#finish();
    } catch (err) {
      if (err instanceof LeaseLost) {
        log(`job ${run.job.id}: lease lost; another worker owns it now`);
        return;
      }
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      log(`job ${run.job.id} failed: ${message}`);
      moveBucket(db, run.job.id, "pending", "stoppedEarly", `job failed: ${message}`.slice(0, 500));
      updateJob(db, run.job.id, {
        state: "failed",
        finishedAt: isoNow(),
        error: message.slice(0, 500),
        fetched: run.fetched,
        leaseOwner: null,
      });
    } finally {
      if (this.#heartbeat) clearInterval(this.#heartbeat);
      await closeRenderer(run);
    }
  }

  #startHeartbeat(): void {
    const { run } = this;
    const { db, config } = run.deps;
    const renewEvery = Math.max(1000, (config.jobLeaseS * 1000) / 3);
    this.#heartbeat = setInterval(() => {
      try {
        if (isCancelRequested(db, run.job.id)) {
          run.cancelled = true;
          run.wake();
        }
        if (Date.now() - this.#lastRenew < renewEvery) return;
        this.#lastRenew = Date.now();
        if (!renewLease(db, run.job.id, run.deps.owner, config.jobLeaseS)) {
          run.lost = true;
          run.wake();
          return;
        }
        updateJob(db, run.job.id, { fetched: run.fetched });
      } catch (err) {
        run.deps.log(`job ${run.job.id}: heartbeat failed (${String(err)}); retrying`);
      }
    }, 1000);
  }

  async #work(): Promise<void> {
    const { run } = this;
    while (!run.halted) {
      if (run.slotsTaken()) {
        await run.waitForWork();
        continue;
      }
      const entry = run.next();
      if (entry === null) {
        if (run.inFlight === 0) {
          run.wake();
          return;
        }
        await run.waitForWork();
        continue;
      }
      if (run.started.has(entry.url)) continue;
      run.started.add(entry.url);
      run.visiting.add(entry.url);
      run.inFlight++;
      try {
        await visit(run, entry);
      } catch (err) {
        const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        run.deps.log(`job ${run.job.id}: ${entry.url} failed: ${message}`);
        run.book(entry.url, "fetchError", `internal error: ${message}`.slice(0, 500));
      } finally {
        run.visiting.delete(entry.url);
        // Pages waiting for this URL as their canonical learn their fate (before the job can
        // see an empty frontier with nothing in flight).
        if (!run.failure && !run.lost) settleCanonical(run, entry.url);
        run.inFlight--;
        run.wake();
      }
    }
    run.wake();
  }

  async #finish(): Promise<void> {
    const { run } = this;
    const { db, config, owner } = run.deps;
    const id = run.job.id;
    let error: string | null = null;
    let state: "completed" | "partial" | "failed" | "cancelled";
    if (!run.cancelled) run.cancelled = isCancelRequested(db, id);
    if (run.cancelled) {
      moveBucket(db, id, "pending", "stoppedEarly", "the job was cancelled");
      state = "cancelled";
    } else {
      if (run.budgetSpent)
        moveBucket(
          db,
          id,
          "pending",
          "budget",
          `budget of ${counted(run.params.budget, "page")} spent`,
        );
      moveBucket(db, id, "pending", "stoppedEarly", "stopped before fetch");
      const counts = bucketCounts(db, id);
      state =
        (counts.get("budget") ?? 0) > 0 || (counts.get("stoppedEarly") ?? 0) > 0
          ? "partial"
          : "completed";
      if (
        typeof run.info.entry_error === "string" &&
        !counts.get("indexed") &&
        !counts.get("unchanged")
      ) {
        // Nothing of the site was reached: "completed" with 0 pages would read as success.
        state = "failed";
        error = run.info.entry_error;
      }
    }
    if (state === "completed" || state === "partial") {
      const warning = indexedTooLittle(fetchedOutcomes(db, id));
      if (warning) {
        state = "partial";
        error ??= warning;
        run.deps.log(`job ${id}: ${warning}`);
      }
    }
    recomputeCitations(db, run.domain);
    if (
      run.params.shots > 0 &&
      state !== "cancelled" &&
      !(await takeScreenshots(run, run.params.shots))
    ) {
      state = "cancelled"; // while its screenshots were being taken
    }
    if (state !== "cancelled") {
      // Fetching is over: the job shows phase `embedding`, and the domain takes a new crawl.
      run.info.fetch_ended_at ??= new Date().toISOString(); // ms: it times a short fetch
      updateJob(db, id, { fetched: run.fetched, info: JSON.stringify(run.info) });
      const embedded = await this.#waitForEmbeddings();
      if (embedded === "stopped") {
        updateJob(db, id, {
          fetched: run.fetched,
          info: JSON.stringify(run.info),
          leaseExpiresAt: 0,
        });
        return;
      }
      if (embedded === "cancelled") state = "cancelled";
    }
    // Processing CPU of the crawl workers per processed page (this run; a resumed job counts anew).
    const per = (ms: number) => Math.round((ms / Math.max(1, run.processed)) * 100) / 100;
    run.info.cpu_ms_per_page = per(run.cpuMs);
    run.info.cpu_ms_per_stage = Object.fromEntries(
      Object.entries(run.stageMs).map(([k, v]) => [k, per(v)]),
    );
    // Still ours? A lease that expired may have gone to another worker, whose run this final
    // state must not overwrite.
    if (!renewLease(db, id, owner, config.jobLeaseS)) throw new LeaseLost();
    updateJob(db, id, {
      state,
      finishedAt: isoNow(),
      fetched: run.fetched,
      info: JSON.stringify(run.info),
      leaseOwner: null,
      ...(error ? { error: error.slice(0, 500) } : {}),
    });
    run.deps.log(`job ${id} ended ${state} after ${counted(run.fetched, "fetch", "fetches")}`);
  }

  /**
   * A job is final only once its chunks have vectors. A cancel meanwhile ends it cancelled (its
   * chunks still get vectors); a stop leaves it to finish on the next start.
   */
  async #waitForEmbeddings(): Promise<"done" | "cancelled" | "stopped"> {
    const { run } = this;
    const backlog = run.deps.embeddingBacklog;
    if (!backlog) return "done";
    while (backlog(run.job.id) > 0) {
      if (isCancelRequested(run.db, run.job.id)) return "cancelled";
      if (run.lost) throw new LeaseLost();
      if (run.stopping) return "stopped";
      await Bun.sleep(250);
    }
    return "done";
  }
}
