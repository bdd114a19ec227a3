/**
 * Where a crawl starts: the entry origin (the host the user typed, the bare domain, `www.`; https
 * first), its home page, the pages known from earlier crawls on a refresh, and the sitemaps, read
 * before any page so that their `lastmod` dates the pages that state none. Every other host in
 * scope has its robots.txt sitemaps read when the crawl first reaches it (`hostSitemaps`).
 */
import { knownPageUrls, saveSitemap, setDomainEntry, setDomainRobots } from "../db/crawl-repo.ts";
import { updateJob } from "../db/jobs-repo.ts";
import { recordDiscovery, type UrlEntry } from "../db/ledger-repo.ts";
import { isoNow } from "../services/clock.ts";
import { entry, type JobRun } from "./job-run.ts";
import { readSitemaps } from "./sitemap-reader.ts";
import { inScope, urlHost } from "./urls.ts";

/** Origins to try, in order; a host the operator mapped (CONNECT_TO) only on the ports mapped. */
export function entryCandidates(run: JobRun): string[] {
  const typed = (run.info.entry_hosts as string[] | undefined) ?? [];
  const hosts = [...new Set([...typed, run.domain, `www.${run.domain}`])];
  const rules = run.deps.config.connectTo;
  const out: string[] = [];
  for (const host of hosts) {
    for (const [scheme, port] of [
      ["https", 443],
      ["http", 80],
    ] as const) {
      const hostRules = rules.filter((r) => r.host === host || r.host === null);
      if (
        rules.length > 0 &&
        hostRules.length > 0 &&
        !hostRules.some((r) => r.port === null || r.port === port)
      )
        continue;
      out.push(`${scheme}://${host}`);
    }
  }
  return out;
}

export async function discover(run: JobRun): Promise<void> {
  if (run.params.startOnly) {
    // One URL to store (POST /api/fetch): no entry page, no sitemaps.
    const starts = run.params.start ?? [];
    run.info.entry_url = starts[0] ?? null;
    run.add(starts.map((url) => entry(url, 0, "entry")));
    return;
  }
  const candidates = entryCandidates(run);
  let entryOrigin: string | null = null;
  const robots: Record<string, string> = {};
  const failures: string[] = [];
  for (const origin of candidates) {
    const policy = await run.robots.policy(`${origin}/`);
    robots[origin] = policy.status;
    if (policy.httpStatus > 0) {
      entryOrigin = origin;
      break;
    }
    failures.push(`${origin}: no answer`);
  }
  run.info.robots = robots;
  const shown = entryOrigin ?? candidates[0] ?? `https://${run.domain}`;
  setDomainRobots(run.db, run.domain, robots[shown] ?? "none yet", isoNow());
  if (entryOrigin === null) {
    run.info.entry_error = `no entry point answered (https, http, www.): ${failures.join("; ")}`;
    run.add([entry(`${shown}/`, 0, "entry")]);
    return;
  }
  const home = `${entryOrigin}/`;
  const kind = run.scope.kind;
  if (kind.kind === "host" && kind.host === null) {
    const host = urlHost(entryOrigin) ?? run.domain;
    run.scope = run.scope.onHost(host);
    run.info.scope_host = host;
    // Kept at once: a job resumed after a crash holds to the same host.
    updateJob(run.db, run.job.id, { info: JSON.stringify(run.info) });
  }
  // Start URLs when given, else the scope's prefix, else the home page.
  const starts = run.params.start?.length
    ? run.params.start
    : kind.kind === "prefix"
      ? [prefixStart(kind.prefix, entryOrigin)]
      : [home];
  run.info.entry_url = starts[0] ?? home;
  setDomainEntry(run.db, run.domain, home);
  const seeds: UrlEntry[] = starts.map((url) => entry(url, 0, "entry"));
  if (run.params.refresh || run.params.force) {
    for (const url of knownPageUrls(run.db, run.domain))
      seeds.push(entry(url, 1, "known", "pending", null, null, 1));
  }
  run.add(seeds);
  await hostSitemaps(run, entryOrigin);
}

/** Most origins of one job whose sitemaps are read (a domain scope may reach many hosts). */
export const MAX_SITEMAP_ORIGINS = 50;

/**
 * Reads the sitemaps robots.txt lists on `origin`, once per job (a resumed job remembers the
 * origins it read, in its info). Called at discovery for the entry origin and by the first visit
 * of each other origin.
 */
export async function hostSitemaps(run: JobRun, origin: string): Promise<void> {
  if (run.sitemapOrigins.has(origin)) return;
  run.sitemapOrigins.add(origin);
  const read = (run.info.sitemap_origins as string[] | undefined) ?? [];
  if (read.includes(origin)) return;
  if (read.length >= MAX_SITEMAP_ORIGINS) {
    run.info.sitemap_origins_skipped = ((run.info.sitemap_origins_skipped as number) ?? 0) + 1;
    return;
  }
  run.info.sitemap_origins = [...read, origin];
  updateJob(run.db, run.job.id, { info: JSON.stringify(run.info) });
  await sitemaps(run, origin);
}

/** The prefix on the entry origin when it is the prefix's host (the scheme that answered). */
function prefixStart(prefix: string, entryOrigin: string): string {
  const p = new URL(prefix);
  return new URL(entryOrigin).host === p.host ? `${entryOrigin}${p.pathname}` : prefix;
}

async function sitemaps(run: JobRun, origin: string): Promise<void> {
  const { config } = run.deps;
  const policy = await run.robots.policy(`${origin}/`);
  // RFC 9309: a robots.txt answering 5xx disallows everything, sitemaps included.
  if (policy.status === "unreachable") return;
  const listed = policy.sitemaps;
  // Sitemap files robots.txt disallows are not fetched; the URLs a sitemap lists are all
  // recorded (a disallowed one lands in the robots bucket when its turn comes).
  const refuseFile = (url: string) =>
    url.startsWith(`${origin}/`) && !policy.allowed(url) ? "disallowed by robots.txt" : null;
  let found = 0;
  const result = await readSitemaps({
    fetcher: run.deps.fetcher,
    origin,
    listed,
    maxSitemaps: config.maxSitemaps,
    maxSitemapUrls: config.maxSitemapUrls,
    inScope: (url) => inScope(url, run.domain),
    refuseFile,
    cancelled: () => run.halted,
    onEntries: (entries) => {
      found += entries.length;
      for (const e of entries) {
        if (e.lastmod) run.lastmod.set(e.loc, e.lastmod);
        if (e.priority !== undefined && e.priority !== null)
          run.sitemapPriority.set(e.loc, e.priority);
      }
      recordDiscovery(
        run.db,
        run.job.id,
        entries.map((e) => e.loc),
        "sitemap",
      );
      run.add(entries.map((e) => entry(e.loc, 1, "sitemap", "pending", null, e.lastmod)));
    },
  });
  const at = isoNow();
  for (const s of result.sitemaps) {
    saveSitemap(run.db, {
      domain: run.domain,
      url: s.url,
      jobId: run.job.id,
      status: s.status,
      urlCount: s.count,
      lastModified: s.lastModified,
      fetchedAt: at,
    });
  }
  run.info.sitemap_urls = ((run.info.sitemap_urls as number | undefined) ?? 0) + found;
}
