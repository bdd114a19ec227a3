/**
 * Pages whose canonical URL names another page (issue 31, fault 6): a canonical that answers
 * makes the page a `duplicate` of it; one that cannot be fetched (https refused on an http-only
 * site, 404, 5xx, robots.txt, the budget) leaves the page indexed under the URL that answered,
 * the reason on its ledger row. Also: a job that indexed almost nothing of what it fetched ends
 * `partial` with an error saying so.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { JobView } from "../../src/services/jobs-service.ts";
import { type Crawler, crawler, expectInvariant } from "../helpers/crawl.ts";
import { PROSE, page, REDIRECT, STATUS, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(60_000);

const DOMAIN = "canon.test";
const HTTP = `http://${DOMAIN}`;

/** A page with its own words (no two share a text) that names `canonical` as canonical. */
function declaring(title: string, canonical: string | null, extra = ""): string {
  const link = canonical === null ? "" : `<link rel="canonical" href="${canonical}">`;
  return `<!doctype html><html lang="en"><head><title>${title}</title>${link}</head><body><main><h1>${title}</h1><p>${PROSE} This page is about ${title}.</p>${extra}</main></body></html>`;
}

const KEPT: Record<string, string> = {
  // The handbook case: served over http, canonical on https, where nothing answers.
  "/book/one.html": `https://${DOMAIN}/book/one.html`,
  "/book/two.html": `https://${DOMAIN}/book/two.html`,
  "/book/three.html": `https://${DOMAIN}/book/three.html`,
  // A canonical that answers 404, one that answers 500.
  "/gone-canonical.html": `${HTTP}/missing.html`,
  "/broken-canonical.html": `${HTTP}/broken.html`,
  // A canonical robots.txt disallows.
  "/robots-canonical.html": `${HTTP}/private/master.html`,
  // A canonical that redirects back to the page itself (a trailing-slash loop).
  "/loop/": `${HTTP}/loop`,
  // A canonical out of the crawl's scope.
  "/syndicated.html": "http://elsewhere.example/original.html",
};

const PAGES: Record<string, string> = {
  "/robots.txt": "User-agent: *\nDisallow: /private/\n",
  "/": page(
    "Canon home",
    `<p>${PROSE}</p>${[
      ...Object.keys(KEPT),
      "/alias.html",
      "/real-first.html",
      "/mutual-a.html",
      "/mutual-b.html",
      "/chain-1.html",
    ]
      .map((p) => `<a href="${p}">${p}</a>`)
      .join(" ")}`,
  ),
  ...Object.fromEntries(
    Object.entries(KEPT).map(([path, canon]) => [path, declaring(path, canon)]),
  ),
  "/broken.html": `${STATUS}500:boom`,
  "/private/master.html": declaring("master", null),
  "/loop": `${REDIRECT}/loop/`,
  // Fetched before its canonical (which no link names): a duplicate of it once it answers.
  "/alias.html": declaring("alias", `${HTTP}/real.html`),
  "/real.html": declaring("real", null),
  // Fetched after its canonical (linked from it, one level deeper): a duplicate at once.
  "/real-first.html": declaring("real first", null, '<a href="/alias-later.html">alias</a>'),
  "/alias-later.html": declaring("alias later", `${HTTP}/real-first.html`),
  // Two pages naming each other: one is kept, the other is its duplicate.
  "/mutual-a.html": declaring("mutual a", `${HTTP}/mutual-b.html`),
  "/mutual-b.html": declaring("mutual b", `${HTTP}/mutual-a.html`),
  // A chain of canonicals ending on a page that answers: each a duplicate of the next.
  "/chain-1.html": declaring("chain 1", `${HTTP}/chain-2.html`),
  "/chain-2.html": declaring("chain 2", `${HTTP}/chain-3.html`),
  "/chain-3.html": declaring("chain 3", null),
};

interface Row {
  url: string;
  bucket: string;
  reason: string | null;
  target: string | null;
}

let site: TestSite;
let c: Crawler;
let view: JobView;
let rows: Map<string, Row>;

function ledger(crawl: Crawler, jobId: string): Map<string, Row> {
  const all = crawl.store.read.$client
    .query<Row, [string]>("SELECT url, bucket, reason, target FROM job_urls WHERE job_id = ?1")
    .all(jobId);
  return new Map(all.map((r) => [r.url, r]));
}

function storedPages(crawl: Crawler): Map<string, string> {
  const all = crawl.store.read.$client
    .query<{ url: string; canonical_url: string }, []>("SELECT url, canonical_url FROM pages")
    .all();
  return new Map(all.map((p) => [p.url, p.canonical_url]));
}

beforeAll(async () => {
  site = serveSite(DOMAIN, { ...PAGES });
  // Only port 80 answers: https:// is refused, as on a mirror or a site whose https is broken.
  c = crawler({ CONNECT_TO: site.connectTo() });
  view = await c.crawl(DOMAIN);
  rows = ledger(c, view.id);
});
afterAll(async () => {
  c.close();
  await site.stop();
});

test("a page whose canonical cannot be fetched is indexed under the URL that answered, with the reason", () => {
  expectInvariant(view);
  expect(view.state).toBe("completed");
  const pages = storedPages(c);
  for (const [path, canonical] of Object.entries(KEPT)) {
    const url = `${HTTP}${path}`;
    const row = rows.get(url);
    expect([url, row?.bucket]).toEqual([url, "indexed"]);
    expect([url, pages.get(url)]).toEqual([url, canonical]);
    expect(row?.reason ?? "").toContain(`canonical ${canonical}`);
    expect(row?.reason ?? "").toContain("kept under the fetched URL");
  }
  const reason = (path: string) => rows.get(`${HTTP}${path}`)?.reason ?? "";
  expect(reason("/book/one.html")).toContain("unreachable");
  expect(reason("/gone-canonical.html")).toContain("HTTP 404");
  expect(reason("/broken-canonical.html")).toContain("HTTP 500");
  expect(reason("/robots-canonical.html")).toContain("robots.txt");
  expect(reason("/loop/")).toContain("redirect");
  expect(reason("/syndicated.html")).toContain("out of scope");
  // The canonicals themselves: in their own buckets, each once.
  expect(rows.get(`https://${DOMAIN}/book/one.html`)?.bucket).toBe("fetchError");
  expect(rows.get(`${HTTP}/missing.html`)?.bucket).toBe("clientError");
  expect(rows.get(`${HTTP}/broken.html`)?.bucket).toBe("serverError");
  expect(rows.get(`${HTTP}/private/master.html`)?.bucket).toBe("robots");
  expect(rows.get(`${HTTP}/loop`)?.bucket).toBe("redirected");
  expect(site.count("/private/master.html")).toBe(0);
  // The indexed bucket says why these pages kept their own URL.
  const reasons = view.coverage.buckets.indexed.reasons ?? [];
  expect(reasons.some((r) => r.reason.includes("kept under the fetched URL"))).toBe(true);
});

test("a canonical that answers still makes the page a duplicate, whichever is fetched first", () => {
  const pages = storedPages(c);
  for (const [alias, real] of [
    ["/alias.html", "/real.html"],
    ["/alias-later.html", "/real-first.html"],
  ] as const) {
    const row = rows.get(`${HTTP}${alias}`);
    expect([alias, row?.bucket, row?.target]).toEqual([alias, "duplicate", `${HTTP}${real}`]);
    expect(row?.reason).toBe(`canonical is ${HTTP}${real}`);
    expect(rows.get(`${HTTP}${real}`)?.bucket).toBe("indexed");
    expect(pages.has(`${HTTP}${alias}`)).toBe(false);
    expect(pages.has(`${HTTP}${real}`)).toBe(true);
  }
  for (const [page, next] of [
    ["/chain-1.html", "/chain-2.html"],
    ["/chain-2.html", "/chain-3.html"],
  ] as const) {
    const row = rows.get(`${HTTP}${page}`);
    expect([page, row?.bucket, row?.target]).toEqual([page, "duplicate", `${HTTP}${next}`]);
  }
  expect(rows.get(`${HTTP}/chain-3.html`)?.bucket).toBe("indexed");
  const mutual = ["/mutual-a.html", "/mutual-b.html"].map((p) => rows.get(`${HTTP}${p}`));
  const kept = mutual.find((r) => r?.bucket === "indexed");
  const dup = mutual.find((r) => r?.bucket === "duplicate");
  expect(kept?.reason).toBe(
    `canonical ${dup?.url} names this page as canonical; kept under the fetched URL`,
  );
  expect(dup?.target).toBe(kept?.url ?? "");
  expect(view.coverage.buckets.duplicate.count).toBe(5);
});

test("a canonical the budget leaves unfetched keeps the page under its URL: partial, invariant holds", async () => {
  const small = serveSite(DOMAIN, {
    "/robots.txt": "User-agent: *\nAllow: /\n",
    "/": page("Small home", `<p>${PROSE}</p><a href="/alias.html">alias</a>`),
    "/alias.html": declaring("alias", `${HTTP}/real.html`),
    "/real.html": declaring("real", null),
  });
  const budgeted = crawler({ CONNECT_TO: small.connectTo() });
  try {
    const v = await budgeted.crawl(DOMAIN, { budget: 2 });
    expectInvariant(v);
    expect(v.state).toBe("partial");
    const r = ledger(budgeted, v.id);
    const alias = r.get(`${HTTP}/alias.html`);
    expect(alias?.bucket).toBe("indexed");
    expect(alias?.reason ?? "").toContain(`canonical ${HTTP}/real.html`);
    expect(alias?.reason ?? "").toContain("budget");
    expect(r.get(`${HTTP}/real.html`)?.bucket).toBe("budget");
    expect(small.count("/real.html")).toBe(0);
  } finally {
    budgeted.close();
    await small.stop();
  }
});

test("a job that indexed almost nothing of what it fetched ends partial, saying so", async () => {
  const dead = Array.from({ length: 30 }, (_, i) => `/dead-${i}.html`);
  const broken = serveSite(DOMAIN, {
    "/robots.txt": "User-agent: *\nAllow: /\n",
    "/": page("Lonely home", `<p>${PROSE}</p>${dead.map((p) => `<a href="${p}">x</a>`).join(" ")}`),
  });
  const lonely = crawler({ CONNECT_TO: broken.connectTo() });
  try {
    const v = await lonely.crawl(DOMAIN);
    expectInvariant(v);
    expect(v.coverage.buckets.clientError.count).toBe(30);
    expect(v.state).toBe("partial");
    expect(v.error ?? "").toContain("1 of 31 fetched pages");
    expect(v.error ?? "").toContain("clientError");
  } finally {
    lonely.close();
    await broken.stop();
  }
});
