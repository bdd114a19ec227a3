/** Start and cancel crawls. */
import type { Config } from "../config.ts";
import { DomainError, validateRootDomain } from "../crawl/domains.ts";
import type { RenderMode } from "../crawl/render/detector.ts";
import { CrawlScope, parseScope, patternProblem } from "../crawl/scope.ts";
import { inScope, normalizeUrl, urlHost } from "../crawl/urls.ts";
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
  scope?: string;
  include?: readonly string[];
  exclude?: readonly string[];
  start?: readonly string[];
  render?: RenderMode;
}

export interface CrawlRequest extends JobParams {
  readonly domain: string;
  /** The host the user typed when it is a subdomain: the crawl starts there. */
  readonly entryHosts: readonly string[];
  /** The host of a `host` scope when the request names it (a start URL, a typed subdomain). */
  readonly scopeHost: string | null;
}

function patterns(field: "include" | "exclude", list: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const pattern of list ?? []) {
    const problem = patternProblem(pattern);
    if (problem) throw invalidBody(field, `pattern ${JSON.stringify(pattern)} ${problem}`);
    if (!out.includes(pattern)) out.push(pattern);
  }
  return out;
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
  const kind = parseScope(body.scope, domain);
  if (typeof kind === "string") throw invalidBody("scope", kind);
  const include = patterns("include", body.include);
  const exclude = patterns("exclude", body.exclude);
  const start: string[] = [];
  for (const raw of body.start ?? []) {
    const url = normalizeUrl(raw);
    if (url === null || !/^https?:\/\//i.test(raw.trim()))
      throw invalidBody("start", `${JSON.stringify(raw)} is not a crawlable http(s) URL`);
    if (!start.includes(url)) start.push(url);
  }
  const typedHosts = typed.endsWith(`.${domain}`) ? [typed] : [];
  const prefixHost = kind.kind === "prefix" ? urlHost(kind.prefix) : null;
  const startHosts = start.map((u) => urlHost(u) ?? "");
  const scopeHost = kind.kind === "host" ? (startHosts[0] ?? typedHosts[0] ?? null) : null;
  const scope = new CrawlScope(domain, { scope: body.scope, include, exclude }, scopeHost);
  for (const url of start) {
    if (!inScope(url, domain)) throw invalidBody("start", `${url} is outside ${domain}`);
    const outside = scope.outside(url);
    if (outside) throw invalidBody("start", `${url} is ${outside}`);
  }
  const scopeParams = {
    ...(kind.kind === "domain" ? {} : { scope: kind.kind === "prefix" ? kind.prefix : "host" }),
    ...(include.length > 0 ? { include } : {}),
    ...(exclude.length > 0 ? { exclude } : {}),
    ...(start.length > 0 ? { start } : {}),
  };
  return {
    domain,
    budget,
    refresh: body.refresh ?? false,
    force: body.force ?? false,
    shots: Math.min(shots, budget), // no more screenshots than pages
    ...scopeParams,
    ...(body.render && body.render !== "auto" ? { render: body.render } : {}),
    entryHosts: [...new Set([...startHosts, ...(prefixHost ? [prefixHost] : []), ...typedHosts])],
    scopeHost,
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
        ...(request.scope === undefined ? {} : { scope: request.scope }),
        ...(request.include === undefined ? {} : { include: request.include }),
        ...(request.exclude === undefined ? {} : { exclude: request.exclude }),
        ...(request.start === undefined ? {} : { start: request.start }),
        ...(request.startOnly ? { startOnly: true } : {}),
        ...(request.render === undefined ? {} : { render: request.render }),
      },
      createdAt: isoNow(),
      keyId,
      info: {
        entry_hosts: request.entryHosts,
        ...(request.scopeHost ? { scope_host: request.scopeHost } : {}),
      },
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
