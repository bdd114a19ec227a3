/**
 * The domain record: coverage with a page-count estimate, health, language properties, sitemaps,
 * changes since the previous crawl, outgoing links and shelves.
 */
import { BUCKETS, type Bucket } from "../crawl/buckets.ts";
import { DomainError, registrableDomain, validateRootDomain } from "../crawl/domains.ts";
import type { RenderMode } from "../crawl/render/detector.ts";
import { type ScopeParams, scopeView } from "../crawl/scope.ts";
import type { Db } from "../db/client.ts";
import {
  domainExternalLinks,
  domainHreflang,
  domainJobs,
  domainPageCount,
  domainPageLocales,
  domainRow,
  domainSeen,
  domainShelves,
  domainSitemaps,
  jobChanges,
  jobHealth,
} from "../db/domains-repo.ts";
import { estimateRows } from "../db/estimate-repo.ts";
import { bucketCounts, type JobRow } from "../db/jobs-repo.ts";
import { properties } from "./domain-properties.ts";
import { invalidParam, notFound } from "./errors.ts";
import { type EstimateEvidence, estimate, gather, type PageEstimate } from "./estimate.ts";

const CHANGE_SAMPLE = 20;
const LINKS_TO_LIMIT = 100;

/** A root domain as a path parameter (`root_domain`) or tool argument (`domain`) gives it. */
export function parseDomain(value: string, allowPrivateSuffixes: boolean, param = "root_domain") {
  try {
    return validateRootDomain(value, { allowPrivateSuffixes });
  } catch (err) {
    if (err instanceof DomainError) throw invalidParam(param, err.message);
    throw err;
  }
}

/** The root domain of a path or argument, known to the store (404 otherwise). */
export function requireDomain(
  db: Db,
  value: string,
  allowPrivateSuffixes: boolean,
  param = "root_domain",
): string {
  const domain = parseDomain(value, allowPrivateSuffixes, param);
  if (!domainSeen(db, domain)) throw notFound(`domain ${domain}`);
  return domain;
}

const r3 = (n: number) => Math.round(n * 1000) / 1000;

function coverage(db: Db, domain: string, job: JobRow | undefined) {
  const pages = domainPageCount(db, domain);
  if (!job) {
    return {
      known: pages,
      indexed: pages,
      job_id: null,
      job_state: null,
      scope: null,
      buckets: null,
      estimate: null,
      evidence: null,
    };
  }
  const info = JSON.parse(job.info) as { scope_host?: unknown; entry_hosts?: unknown };
  const entryHosts = Array.isArray(info.entry_hosts) ? info.entry_hosts : [];
  const host = typeof info.scope_host === "string" ? info.scope_host : entryHosts[0];
  const scope = scopeView(
    domain,
    JSON.parse(job.params) as ScopeParams,
    typeof host === "string" ? host : null,
  );
  const counts = bucketCounts(db, job.id);
  const buckets = {} as Record<Bucket | "unaccounted", number>;
  let known = 0;
  let total = 0;
  for (const n of counts.values()) total += n;
  for (const name of BUCKETS) {
    buckets[name] = counts.get(name) ?? 0;
    known += buckets[name];
  }
  buckets.unaccounted = total - known;
  const est = estimate(gather(estimateRows(db, job.id)), pages);
  return {
    known: total,
    indexed: pages,
    job_id: job.id,
    job_state: job.state,
    scope,
    buckets,
    estimate: est.estimate ? { ...(est.estimate as PageEstimate), scope: scope.label } : null,
    evidence: est.evidence as EstimateEvidence | null,
  };
}

function health(db: Db, domain: string, job: JobRow | undefined) {
  const row = domainRow(db, domain);
  const base = {
    robots_txt: {
      status: row?.robotsStatus ?? null,
      checked_at: isoTime(row?.robotsCheckedAt ?? null),
    },
    entry_url: row?.entryUrl ?? null,
  };
  if (!job) {
    return {
      ...base,
      fetched: null,
      errors: null,
      error_rate: null,
      median_response_s: null,
      last_job: null,
      last_job_state: null,
    };
  }
  const h = jobHealth(db, job.id);
  return {
    ...base,
    fetched: h.fetched as number | null,
    errors: {
      clientError: h.clientErrors,
      serverError: h.serverErrors,
      fetchError: h.fetchErrors,
    } as { clientError: number; serverError: number; fetchError: number } | null,
    error_rate: h.fetched ? r3(h.errors / h.fetched) : null,
    median_response_s: h.medianMs === null ? null : r3(h.medianMs / 1000),
    last_job: {
      id: job.id,
      state: job.state,
      created_at: job.createdAt,
      finished_at: job.finishedAt,
      render: jobRender(job),
    } as {
      id: string;
      state: JobRow["state"];
      created_at: string;
      finished_at: string | null;
      render: { mode: RenderMode; rendered: number };
    } | null,
    last_job_state: job.state as JobRow["state"] | null,
  };
}

/** The job's render mode and how many pages it rendered. */
function jobRender(job: JobRow): { mode: RenderMode; rendered: number } {
  const info = JSON.parse(job.info) as { render?: { rendered?: number } };
  const params = JSON.parse(job.params) as { render?: RenderMode };
  return { mode: params.render ?? "auto", rendered: info.render?.rendered ?? 0 };
}

/**
 * An HTTP date (`Last-Modified`), an ISO time or epoch seconds as RFC 3339 UTC; null when
 * unreadable. Times the crawler wrote are normalized here, so the record always matches its
 * schema.
 */
export function isoTime(value: string | number | null): string | null {
  if (value === null || value === "") return null;
  const ms = typeof value === "number" ? value * 1000 : Date.parse(value);
  return Number.isNaN(ms) ? null : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function changes(db: Db, finished: readonly JobRow[]) {
  const [latest, previous] = finished;
  if (!latest) {
    const none = { count: 0, pages: [] };
    return { job_id: null, previous_job_id: null, added: none, removed: none, modified: none };
  }
  return {
    job_id: latest.id as string | null,
    previous_job_id: previous?.id ?? null,
    ...jobChanges(db, latest.id, CHANGE_SAMPLE),
  };
}

function linksTo(db: Db, domain: string, allowPrivateSuffixes: boolean) {
  const byDomain = new Map<string, { links: number; pages: Set<string>; hosts: Set<string> }>();
  for (const { host, source, links } of domainExternalLinks(db, domain)) {
    const target = registrableDomain(host, { allowPrivateSuffixes }) ?? host;
    if (target === domain) continue;
    const entry = byDomain.get(target) ?? { links: 0, pages: new Set<string>(), hosts: new Set() };
    byDomain.set(target, entry);
    entry.links += links;
    entry.pages.add(source);
    entry.hosts.add(host);
  }
  return [...byDomain]
    .map(([d, e]) => ({
      domain: d,
      links: e.links,
      pages: e.pages.size,
      hosts: [...e.hosts].sort().slice(0, 10),
    }))
    .sort(
      (a, b) =>
        b.pages - a.pages ||
        b.links - a.links ||
        (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0),
    )
    .slice(0, LINKS_TO_LIMIT);
}

export type DomainRecord = ReturnType<typeof domainRecord>;

/** Whether search answers for all of the domain's pages (`webcorpus verify` checks it in full). */
function searchIndex(domain: string, indexStatus: IndexStatus) {
  if (!indexStatus) return null;
  const detail = indexStatus(domain);
  return { state: detail ? ("rebuilding" as const) : ("ready" as const), detail };
}

/** The search index's state for a domain: `indexStatus` of the search runtime, null without one. */
export type IndexStatus = ((domain: string) => string | null) | null;

export function domainRecord(
  db: Db,
  value: string,
  allowPrivateSuffixes: boolean,
  param = "root_domain",
  indexStatus: IndexStatus = null,
) {
  const domain = requireDomain(db, value, allowPrivateSuffixes, param);
  const [latest] = domainJobs(db, domain, false, 1);
  const finished = domainJobs(db, domain, true, 2);
  const sitemaps = domainSitemaps(db, domain).map((s) => ({
    url: s.url,
    url_count: s.urlCount,
    status: s.status,
    last_modified: isoTime(s.lastModified),
    fetched_at: isoTime(s.fetchedAt),
  }));
  return {
    domain,
    coverage: coverage(db, domain, latest),
    health: { ...health(db, domain, latest), search_index: searchIndex(domain, indexStatus) },
    properties: properties({
      domain,
      pages: domainPageLocales(db, domain),
      hreflang: domainHreflang(db, domain),
      sitemaps: sitemaps.map((s) => s.url),
    }),
    sitemaps,
    changes: changes(db, finished),
    links_to: linksTo(db, domain, allowPrivateSuffixes),
    collections: domainShelves(db, domain),
  };
}
