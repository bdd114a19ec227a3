/** Start and cancel crawls. */
import type { Config } from "../config.ts";
import { DomainError, validateRootDomain } from "../crawl/domains.ts";
import type { Db } from "../db/client.ts";
import {
  cancelQueued,
  createJob,
  getJob,
  type JobParams,
  type JobRow,
  requestCancel,
} from "../db/jobs-repo.ts";
import { isoNow } from "./clock.ts";
import { conflict, invalidBody } from "./errors.ts";
import { newJobId } from "./ids.ts";
import { requireJob } from "./jobs-service.ts";
import type { RateLimiter } from "./rate-limiter.ts";

export interface CrawlBody {
  domain: string;
  budget?: number;
  refresh?: boolean;
  force?: boolean;
  shots?: number | boolean;
}

export interface CrawlRequest extends JobParams {
  readonly domain: string;
  /** The host the user typed when it is a subdomain: the crawl starts there. */
  readonly entryHosts: readonly string[];
}

/** The normalized request of a crawl body whose types the schema has checked. */
export function crawlRequest(config: Config, body: CrawlBody): CrawlRequest {
  let domain: string;
  try {
    domain = validateRootDomain(body.domain, { allowPrivateSuffixes: config.allowPrivateSuffixes });
  } catch (err) {
    if (err instanceof DomainError) throw invalidBody("domain", err.message);
    throw err;
  }
  const budget = body.budget ?? config.defaultBudget;
  const shots = body.shots === true ? 10 : body.shots === false ? 0 : (body.shots ?? 0);
  const typed = body.domain.trim().toLowerCase().replace(/\.$/, "");
  return {
    domain,
    budget,
    refresh: body.refresh ?? false,
    force: body.force ?? false,
    shots: Math.min(shots, budget), // no more screenshots than pages
    entryHosts: typed.endsWith(`.${domain}`) ? [typed] : [],
  };
}

/** Queues a crawl; with a limiter, it takes one of the key's starts if the crawl is accepted. */
export function startCrawl(
  db: Db,
  request: CrawlRequest,
  keyId: string | null,
  limiter: RateLimiter | null,
): JobRow {
  const start = (): JobRow => {
    const result = createJob(db, {
      id: newJobId(),
      domain: request.domain,
      params: {
        budget: request.budget,
        refresh: request.refresh,
        force: request.force,
        shots: request.shots,
      },
      createdAt: isoNow(),
      keyId,
      info: { entry_hosts: request.entryHosts },
    });
    if (!result.ok) {
      throw conflict(`${request.domain} already has an active crawl ${result.activeId}`, {
        job_id: result.activeId,
      });
    }
    return result.job;
  };
  return limiter && keyId ? limiter.withSlot(keyId, start) : start();
}

export function cancelJob(db: Db, id: string): JobRow {
  const job = requireJob(db, id);
  if (job.state !== "queued" && job.state !== "running") {
    throw conflict(`job ${job.id} has ended (${job.state})`);
  }
  if (!cancelQueued(db, job.id, isoNow(), "cancelled before it started")) requestCancel(db, job.id);
  return getJob(db, job.id) ?? job;
}
