/**
 * One URL of a crawl: robots, the stored page, the budget, the fetch and processing in a worker,
 * then the ledger and the store. Every path ends with the URL in exactly one bucket (or still
 * pending, when the budget is spent, booked as `budget` at the end of the job).
 */
import { findSameText, pageInternalLinks, pageState } from "../db/crawl-repo.ts";
import { ledgerRow, recordFetchTime, type UrlEntry } from "../db/ledger-repo.ts";
import { type LinkRow, type PageWrite, recordUnchanged, savePage } from "../db/page-writes.ts";
import { withMaxSimilarity } from "../facets/originality.ts";
import { counted } from "../plural.ts";
import { isoNow } from "../services/clock.ts";
import type { Bucket } from "./buckets.ts";
import { AWAITED_PRIORITY as AWAITED, pageChars, type WaitingPage } from "./canonical-waits.ts";
import { refusedAddress } from "./fetch-errors.ts";
import { hostSitemaps } from "./job-discovery.ts";
import { type JobRun, entry as ledgerEntry, type PageLink } from "./job-run.ts";
import type { FetchMeta } from "./messages.ts";
import type { ProcessedPage } from "./process-page.ts";
import { fetchPage } from "./render/render-visit.ts";
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
  const origin = originOf(url);
  if (origin && !run.sitemapOrigins.has(origin)) await hostSitemaps(run, origin);
  const pid = pageId(url);
  const state = pageState(run.db, pid);
  if (state && !run.params.refresh && !run.params.force) {
    run.book(url, "unchanged", "already indexed; not re-fetched (refresh=false)", { pageId: pid });
    run.addLinks(pageInternalLinks(run.db, pid), entry.depth + 1, url);
    return;
  }
  if (run.fetched >= run.params.budget) {
    run.budgetSpent = true;
    return; // stays pending; booked as `budget` when the job ends
  }
  run.fetched++;
  const conditional = state !== null && run.params.refresh && !run.params.force;
  const result = await fetchPage(run, {
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
      run.addLinks(pageInternalLinks(run.db, pid), entry.depth + 1, url);
    } else run.book(url, outcome.bucket, outcome.reason, { httpStatus: fetch.status || null });
  } else if (result.page) {
    run.processed++;
    for (const [stage, ms] of Object.entries(result.page.timings)) {
      run.cpuMs += ms;
      run.stageMs[stage] = (run.stageMs[stage] ?? 0) + ms;
    }
    // Stored under the fetched URL, the page's write has recorded the response time already.
    if (store(run, entry, pid, fetch, result.page)) return;
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

/**
 * Stores the page or books why not; true when its fetch's response time is recorded (by its
 * write), or will be (it waits for its canonical URL).
 */
function store(
  run: JobRun,
  entry: UrlEntry,
  pid: string,
  fetch: FetchMeta,
  page: ProcessedPage,
): boolean {
  const { url } = entry;
  const { doc } = page;
  if (doc.noindex) {
    run.book(url, "noindex", "meta robots noindex", { httpStatus: fetch.status });
    run.addLinks(pageLinks(page), entry.depth + 1, entry.url);
    return false;
  }
  const canonical = doc.canonicalUrl ? normalizeUrl(doc.canonicalUrl, url) : null;
  if (canonical === null || canonical === url) return keep(run, entry, pid, fetch, page, null);
  if (!inScope(canonical, run.domain))
    return keep(run, entry, pid, fetch, page, `canonical ${canonical} is out of scope${KEPT}`);
  const fate = canonicalFate(run, entry, canonical, page);
  if (fate.kind === "keep") return keep(run, entry, pid, fetch, page, fate.note);
  if (fate.kind === "duplicate") {
    duplicate(run, entry.url, canonical, fetch);
    run.addLinks(pageLinks(page), entry.depth + 1, entry.url);
    return false;
  }
  run.canonicalWaits.add({ entry, pageId: pid, canonical, fetch, page, chars: fate.chars });
  run.addLinks(pageLinks(page), entry.depth + 1, entry.url);
  return true;
}

const KEPT = "; kept under the fetched URL";

type CanonicalFate =
  | { readonly kind: "duplicate" }
  | { readonly kind: "keep"; readonly note: string }
  | { readonly kind: "wait"; readonly chars: number };

/**
 * What becomes of a page naming `canonical` (in scope, another URL): a duplicate of it once it
 * is in the index, kept under its own URL when it cannot be, or waiting while its visit is to
 * come or under way (it is then taken from the frontier next).
 */
function canonicalFate(
  run: JobRun,
  entry: UrlEntry,
  canonical: string,
  page: ProcessedPage,
): CanonicalFate {
  let row = ledgerRow(run.db, run.job.id, canonical);
  const fresh = row === null;
  if (row === null) {
    // Queued ahead of the frontier.
    run.add([ledgerEntry(canonical, entry.depth, "canonical", "pending", null, null, AWAITED)]);
    row = ledgerRow(run.db, run.job.id, canonical); // the trap guard may have filtered it
    if (row === null) return { kind: "keep", note: `canonical ${canonical} not tracked${KEPT}` };
  }
  if (row.bucket !== "pending") return fateOf(run, canonical, row);
  // A canonical waiting on a chain of canonicals that leads back here: this page ends the chain.
  // (No page waits in a cycle: each wait is checked here before it is added.)
  let t = run.canonicalWaits.targetOf(canonical);
  for (let hops = 0; t !== undefined && hops <= run.canonicalWaits.size; hops++) {
    if (t === entry.url)
      return { kind: "keep", note: `canonical ${canonical} names this page as canonical${KEPT}` };
    t = run.canonicalWaits.targetOf(t);
  }
  const waiting = run.canonicalWaits.targetOf(canonical) !== undefined;
  if (!waiting && run.started.has(canonical) && !run.visiting.has(canonical))
    return fateOf(run, canonical, row); // left pending by its visit: the budget
  const chars = pageChars(page);
  if (!run.canonicalWaits.fits(chars)) {
    const n = run.canonicalWaits.size;
    return {
      kind: "keep",
      note: `canonical ${canonical} not fetched yet (${n} pages wait)${KEPT}`,
    };
  }
  if (!fresh && !run.started.has(canonical)) {
    // Fetched next (a copy ahead of the frontier): the page's content waits until then.
    const depth = Math.min(row.depth, entry.depth);
    const lastmod = run.lastmod.get(canonical) ?? null;
    run.frontier.push(
      ledgerEntry(canonical, depth, "canonical", "pending", null, lastmod, AWAITED),
    );
    run.wake();
  }
  return { kind: "wait", chars };
}

/** A page's fate by its canonical's final (or left pending) ledger row. */
function fateOf(
  run: JobRun,
  canonical: string,
  row: { bucket: Bucket; reason: string | null },
): CanonicalFate {
  if (row.bucket === "indexed" || row.bucket === "unchanged" || row.bucket === "duplicate")
    return { kind: "duplicate" };
  if (row.bucket === "pending") {
    const why = run.budgetSpent
      ? `budget of ${counted(run.params.budget, "page")} spent`
      : "the job stopped first";
    return { kind: "keep", note: `canonical ${canonical} not fetched: ${why}${KEPT}` };
  }
  const reason = row.reason ? `, ${row.reason}` : "";
  return { kind: "keep", note: `canonical ${canonical} failed: ${row.bucket}${reason}${KEPT}` };
}

function duplicate(run: JobRun, url: string, canonical: string, fetch: FetchMeta): void {
  run.book(url, "duplicate", `canonical is ${canonical}`, {
    httpStatus: fetch.status,
    target: canonical,
  });
}

/**
 * The visit of `url` ended, or `url` reached its bucket: the pages waiting on it learn their
 * fate (a page waiting on a page that itself waits goes on waiting, on it).
 */
export function settleCanonical(run: JobRun, url: string): void {
  const waits = run.canonicalWaits;
  if (waits.targetOf(url) !== undefined || run.visiting.has(url)) return;
  const waiting = waits.take(url);
  if (waiting.length === 0) return;
  const row = ledgerRow(run.db, run.job.id, url);
  for (const w of waiting) {
    const fate: CanonicalFate = row
      ? fateOf(run, w.canonical, row)
      : { kind: "keep", note: `canonical ${w.canonical} not tracked${KEPT}` };
    resolve(run, w, fate);
  }
}

/** Every page still waiting is kept under its own URL (its canonical was never visited). */
export function settleAllCanonicals(run: JobRun, why: string): void {
  for (const w of run.canonicalWaits.takeAll())
    resolve(run, w, { kind: "keep", note: `canonical ${w.canonical} not fetched: ${why}${KEPT}` });
}

function resolve(run: JobRun, w: WaitingPage, fate: CanonicalFate): void {
  const { url } = w.entry;
  try {
    let timed = false;
    if (fate.kind === "duplicate") duplicate(run, url, w.canonical, w.fetch);
    else
      timed = keep(
        run,
        w.entry,
        w.pageId,
        w.fetch,
        w.page,
        fate.kind === "keep" ? fate.note : null,
      );
    if (!timed) recordFetchTime(run.db, run.job.id, url, w.fetch.elapsedMs);
  } catch (err) {
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    run.deps.log(`job ${run.job.id}: ${url} failed: ${message}`);
    run.book(url, "fetchError", `internal error: ${message}`.slice(0, 500));
  }
  settleCanonical(run, url);
}

function pageLinks(page: ProcessedPage): PageLink[] {
  const { doc } = page;
  return doc.nofollow
    ? []
    : doc.links
        .filter((l) => !l.nofollow)
        .map((l) => ({ url: l.url, body: l.position === "body" }));
}

/**
 * Stores the page under the URL that answered (`note`: why, on its ledger row), or books it a
 * same-content duplicate or unchanged; true when its write recorded the fetch's response time.
 */
function keep(
  run: JobRun,
  entry: UrlEntry,
  pid: string,
  fetch: FetchMeta,
  page: ProcessedPage,
  note: string | null,
): boolean {
  const { url } = entry;
  const links = pageLinks(page);
  const depth = entry.depth + 1;
  const status = fetch.status;
  let same = run.textHashes.get(page.textHash) ?? null;
  if (same === null || same === url) same = findSameText(run.db, run.domain, page.textHash, pid);
  if (same && same !== url) {
    run.book(url, "duplicate", `same content as ${same}`, { httpStatus: status, target: same });
    run.addLinks(links, depth, url);
    return false;
  }
  const state = pageState(run.db, pid);
  if (state && state.textHash === page.textHash && !run.params.force) {
    unchanged(run, pid, url, fetch, "content unchanged");
    run.addLinks(links, depth, url);
    return false;
  }
  run.textHashes.set(page.textHash, url);
  const validators = {
    etag: fetch.headers.etag ?? null,
    lastModified: fetch.headers["last-modified"] ?? null,
  };
  const write = pageWrite(run, url, pid, status, validators, page);
  savePage(run.db, write, {
    ledgerUrl: url,
    changed: state === null || state.textHash !== page.textHash,
    fetched: true,
    elapsedMs: fetch.elapsedMs,
    reason: note,
  });
  run.deps.indexer?.pageStored(write);
  run.addLinks(links, depth, url);
  return true;
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
