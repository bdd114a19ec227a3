/**
 * One URL of a crawl: robots, the stored page, the budget, the fetch and processing in a worker,
 * then the ledger and the store. Every path ends with the URL in exactly one bucket (or still
 * pending, when the budget is spent, booked as `budget` at the end of the job).
 */
import { findSameText, pageInternalLinks, pageState } from "../db/crawl-repo.ts";
import { recordFetchTime, type UrlEntry } from "../db/ledger-repo.ts";
import { type LinkRow, type PageWrite, recordUnchanged, savePage } from "../db/page-writes.ts";
import { withMaxSimilarity } from "../facets/originality.ts";
import { isoNow } from "../services/clock.ts";
import { refusedAddress } from "./fetch-errors.ts";
import { type JobRun, entry as ledgerEntry } from "./job-run.ts";
import type { FetchMeta } from "./messages.ts";
import type { ProcessedPage } from "./process-page.ts";
import { inScope, normalizeUrl, originOf, pageId, urlHost } from "./urls.ts";

export async function visit(run: JobRun, entry: UrlEntry): Promise<void> {
  const { url } = entry;
  const policy = await run.robots.policy(url);
  const delay = policy.crawlDelayS;
  if (delay) run.deps.throttle.setCrawlDelayS(urlHost(url) ?? "", delay);
  if (policy.status === "unreachable") {
    const origin = originOf(url);
    if (policy.failure?.kind === "ssrf") {
      // Not unreachable: the crawler chose not to connect (a subdomain resolving to a private
      // address, say); the reason says so, and which setting would allow it.
      run.book(url, "fetchError", refusedAddress(policy.failure.detail));
    } else if (policy.httpStatus === 0) {
      run.book(url, "fetchError", `host unreachable (no answer on ${origin}/robots.txt)`);
    } else {
      run.book(
        url,
        "robots",
        `${origin}/robots.txt answered HTTP ${policy.httpStatus}: all disallowed (RFC 9309); retried on the next crawl`,
      );
    }
    return;
  }
  if (!policy.allowed(url)) {
    run.book(url, "robots", "disallowed by robots.txt");
    return;
  }
  const pid = pageId(url);
  const state = pageState(run.db, pid);
  if (state && !run.params.refresh && !run.params.force) {
    run.book(url, "unchanged", "already indexed; not re-fetched (refresh=false)", { pageId: pid });
    run.addLinks(pageInternalLinks(run.db, pid), entry.depth + 1);
    return;
  }
  if (run.fetched >= run.params.budget) {
    run.budgetSpent = true;
    return; // stays pending; booked as `budget` when the job ends
  }
  run.fetched++;
  const conditional = state !== null && run.params.refresh && !run.params.force;
  const result = await run.deps.pool.run({
    url,
    etag: conditional ? state.etag : null,
    lastModified: conditional ? state.lastModified : null,
    sitemapLastmod: (run.lastmod.get(url) ?? entry.lastmod)?.slice(0, 10) ?? null,
  });
  if (result.kind === "failed") {
    run.book(url, "fetchError", result.reason, { httpStatus: result.fetch?.status ?? null });
    return;
  }
  const { fetch, outcome } = result;
  if (outcome.kind === "booked") {
    if (outcome.bucket === "redirected") redirect(run, entry, outcome.target ?? null, fetch);
    else if (outcome.bucket === "unchanged") {
      unchanged(run, pid, url, fetch, outcome.reason);
      run.addLinks(pageInternalLinks(run.db, pid), entry.depth + 1);
    } else run.book(url, outcome.bucket, outcome.reason, { httpStatus: fetch.status || null });
  } else if (result.page) {
    run.processed++;
    for (const [stage, ms] of Object.entries(result.page.timings)) {
      run.cpuMs += ms;
      run.stageMs[stage] = (run.stageMs[stage] ?? 0) + ms;
    }
    // Stored under the fetched URL, the page's write has recorded the response time already.
    if (await store(run, entry, pid, fetch, result.page)) return;
  }
  recordFetchTime(run.db, run.job.id, url, fetch.elapsedMs);
}

function unchanged(run: JobRun, pid: string, url: string, fetch: FetchMeta, reason: string): void {
  recordUnchanged(run.db, {
    pageId: pid,
    jobId: run.job.id,
    ledgerUrl: url,
    status: fetch.status,
    fetchedAt: isoNow(),
    reason,
    etag: fetch.headers.etag ?? null,
    lastModified: fetch.headers["last-modified"] ?? null,
  });
}

function redirect(run: JobRun, entry: UrlEntry, target: string | null, fetch: FetchMeta): void {
  const { url } = entry;
  if (target === null) {
    run.book(url, "fetchError", `HTTP ${fetch.status} with an unusable Location`, {
      httpStatus: fetch.status,
    });
    return;
  }
  const scope = inScope(target, run.domain);
  const reason = `HTTP ${fetch.status} to ${target}${scope ? "" : " (out of scope)"}`;
  run.book(url, "redirected", reason, { httpStatus: fetch.status, target });
  if (!scope) return;
  const hops = (run.hops.get(url) ?? 0) + 1;
  if (!run.hops.has(target)) run.hops.set(target, hops);
  const max = run.deps.config.maxRedirects;
  if (hops > max) {
    run.add([
      ledgerEntry(target, entry.depth, "redirect", "filtered", `redirect chain longer than ${max}`),
    ]);
    return;
  }
  run.add([ledgerEntry(target, entry.depth, "redirect", "pending", null, null, entry.priority)]);
}

/** Stores the page or books why not; true when its write recorded the fetch's response time. */
async function store(
  run: JobRun,
  entry: UrlEntry,
  fetchedPid: string,
  fetch: FetchMeta,
  page: ProcessedPage,
): Promise<boolean> {
  let url = entry.url;
  let pid = fetchedPid;
  const { doc } = page;
  const links = doc.nofollow ? [] : doc.links.filter((l) => !l.nofollow).map((l) => l.url);
  const depth = entry.depth + 1;
  const status = fetch.status;
  if (doc.noindex) {
    run.book(url, "noindex", "meta robots noindex", { httpStatus: status });
    run.addLinks(links, depth);
    return false;
  }
  let validators = {
    etag: fetch.headers.etag ?? null,
    lastModified: fetch.headers["last-modified"] ?? null,
  };
  const canonical = doc.canonicalUrl ? normalizeUrl(doc.canonicalUrl, url) : null;
  if (canonical && canonical !== url && inScope(canonical, run.domain)) {
    run.book(url, "duplicate", `canonical is ${canonical}`, {
      httpStatus: status,
      target: canonical,
    });
    const claimable = !run.started.has(canonical);
    const allowed = claimable && (await run.robots.policy(canonical)).allowed(canonical);
    if (!claimable || !allowed) {
      run.add([
        ledgerEntry(canonical, entry.depth, "canonical", "pending", null, null, entry.priority),
      ]);
      run.addLinks(links, depth);
      return false;
    }
    // The page names its canonical address: its content is indexed there, without a second
    // fetch of the same content.
    run.started.add(canonical);
    if (!run.known.has(canonical))
      run.add([ledgerEntry(canonical, entry.depth, "canonical", "pending")]);
    url = canonical;
    pid = pageId(canonical);
    validators = { etag: null, lastModified: null };
  }
  let same = run.textHashes.get(page.textHash) ?? null;
  if (same === null || same === url) same = findSameText(run.db, run.domain, page.textHash, pid);
  if (same && same !== url) {
    run.book(url, "duplicate", `same content as ${same}`, { httpStatus: status, target: same });
    run.addLinks(links, depth);
    return false;
  }
  const state = pageState(run.db, pid);
  if (state && state.textHash === page.textHash && !run.params.force) {
    const { etag: _, "last-modified": __, ...rest } = fetch.headers;
    unchanged(
      run,
      pid,
      url,
      url === entry.url ? fetch : { ...fetch, headers: rest },
      "content unchanged",
    );
    run.addLinks(links, depth);
    return false;
  }
  run.textHashes.set(page.textHash, url);
  const write = pageWrite(run, url, pid, status, validators, page);
  const fetched = url === entry.url;
  savePage(run.db, write, {
    ledgerUrl: url,
    changed: state === null || state.textHash !== page.textHash,
    fetched,
    elapsedMs: fetch.elapsedMs,
  });
  run.deps.indexer?.pageStored(write);
  run.addLinks(links, depth);
  return fetched;
}

function pageWrite(
  run: JobRun,
  url: string,
  pid: string,
  status: number,
  validators: { etag: string | null; lastModified: string | null },
  page: ProcessedPage,
): PageWrite {
  const { doc } = page;
  const rows = new Map<string, LinkRow>();
  for (const link of doc.links) {
    const target = run.linkTarget(link.url);
    if (!target || target.url === url) continue;
    const seen = rows.get(target.url);
    // One row per target: its first body link if it has any, else its first link.
    if (seen && (seen.position === "body" || link.position !== "body")) continue;
    rows.set(target.url, {
      targetUrl: target.url,
      targetPageId: target.pageId,
      targetHost: target.host,
      anchor: link.anchorText.slice(0, 300),
      position: link.position,
      internal: target.internal,
    });
  }
  const simhash = page.simhash === null ? null : BigInt(`0x${page.simhash}`);
  const nearest = run.simhashes.maxSimilarity(simhash, pid);
  run.simhashes.set(pid, simhash);
  const scored = withMaxSimilarity(
    {
      facets: page.facets,
      explain: page.explain,
      simhash: simhash ?? 0n,
      boilerplate: page.boilerplate,
    },
    nearest,
  );
  const { explain } = scored;
  const f = scored.facets;
  return {
    id: pid,
    url,
    canonicalUrl: doc.canonicalUrl ? (normalizeUrl(doc.canonicalUrl, url) ?? url) : url,
    domain: run.domain,
    host: urlHost(url) ?? "",
    title: doc.title,
    description: doc.description,
    markdown: doc.markdown,
    contentHash: page.contentHash,
    textHash: page.textHash,
    etag: validators.etag,
    lastModified: validators.lastModified,
    httpStatus: status,
    fetchedAt: isoNow(),
    jobId: run.job.id,
    declaredLanguage: doc.language,
    hreflang: doc.hreflang,
    simhash: page.simhash,
    facets: {
      type: f.type,
      format: f.format,
      audience: f.audience,
      locale: f.locale,
      topics: f.topics,
      technicality: f.technicality,
      depth: f.depth,
      originality: f.originality,
      promotional: f.promotional,
      hasCode: f.has_code,
      words: f.words,
      published: f.published,
      explain,
    },
    assets: doc.assets.map((a) => ({ url: a.url, kind: a.kind, alt: a.alt })),
    links: [...rows.values()],
    chunks: page.chunks,
  };
}
