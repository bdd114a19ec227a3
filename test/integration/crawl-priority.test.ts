/**
 * The frontier's order under a budget (issue 32 §2): a site whose content sits deep below a wide
 * set of index pages (tags, pagination) nearer the home page. Breadth-first, the budget goes to
 * the near index pages; in expected-value order, to the content.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { type Crawler, crawler, expectInvariant } from "../helpers/crawl.ts";
import { PROSE, page, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(60_000);

const DOMAIN = "wide.test";
const NAV = '<a href="/">Home</a> <a href="/docs/">Docs</a> <a href="/tags/">Tags</a>';
const TAGS = 40;
const ARCHIVE = 20;
const CHAPTERS = 5;
const SECTIONS = 3;

function pages(): Record<string, string> {
  const out: Record<string, string> = {
    "/robots.txt": "User-agent: *\nAllow: /\n",
    "/": page(
      "Wide",
      `<p>${PROSE}</p><p><a href="/docs/">The guide</a>, <a href="/tags/">every tag</a>, <a href="/archive/page/1/">the archive</a>.</p>`,
      NAV,
    ),
  };
  const tagLinks = Array.from({ length: TAGS }, (_, i) => `<a href="/tag/t${i}/">t${i}</a>`);
  out["/tags/"] = page("Tags", `<p>${tagLinks.join(" ")}</p>`, NAV);
  for (let i = 0; i < TAGS; i++)
    out[`/tag/t${i}/`] = page(`Tag t${i}`, `<p>Pages tagged t${i}: none yet. ${PROSE}</p>`, NAV);
  for (let n = 1; n <= ARCHIVE; n++) {
    const next = n < ARCHIVE ? `<a href="/archive/page/${n + 1}/">older</a>` : "";
    const tags = tagLinks.slice(n, n + 3).join(" ");
    out[`/archive/page/${n}/`] = page(`Archive ${n}`, `<p>${tags} ${next}</p>`, NAV);
  }
  const chapters = Array.from(
    { length: CHAPTERS },
    (_, c) => `<a href="/docs/ch${c}.html">Chapter ${c}</a>`,
  );
  out["/docs/"] = page("Guide", `<p>${PROSE}</p><p>${chapters.join(" ")}</p>`, NAV);
  for (let c = 0; c < CHAPTERS; c++) {
    const sections = Array.from(
      { length: SECTIONS },
      (_, s) => `<a href="/docs/ch${c}/s${s}.html">Section ${c}.${s}</a>`,
    );
    out[`/docs/ch${c}.html`] = page(
      `Chapter ${c}`,
      `<p>${PROSE} Chapter ${c}.</p><p>${sections.join(" ")}</p>`,
      NAV,
    );
    for (let s = 0; s < SECTIONS; s++)
      out[`/docs/ch${c}/s${s}.html`] = page(
        `Section ${c}.${s}`,
        `<p>${PROSE} Section ${c}.${s}; see <a href="/docs/core/c${c}.html">core idea ${c}</a>.</p>`,
        NAV,
      );
    out[`/docs/core/c${c}.html`] = page(`Core ${c}`, `<p>${PROSE} The core idea ${c}.</p>`, NAV);
  }
  return out;
}

/** Home, the three index roots, the chapters, their sections and the core pages. */
const CONTENT = [
  "/",
  "/docs/",
  "/tags/",
  "/archive/page/1/",
  ...Array.from({ length: CHAPTERS }, (_, c) => [
    `/docs/ch${c}.html`,
    `/docs/core/c${c}.html`,
    ...Array.from({ length: SECTIONS }, (_, s) => `/docs/ch${c}/s${s}.html`),
  ]).flat(),
];
const BUDGET = CONTENT.length + 2;

let site: TestSite;
const crawlers: Crawler[] = [];

beforeAll(() => {
  site = serveSite(DOMAIN, pages());
});
afterAll(async () => {
  for (const c of crawlers) c.close();
  await site.stop();
});

async function fetchedWith(order: "value" | "bfs"): Promise<Set<string>> {
  const c = crawler({ CONNECT_TO: site.connectTo(), HOST_CONCURRENCY: "2", FRONTIER_ORDER: order });
  crawlers.push(c);
  const view = await c.crawl(DOMAIN, { budget: BUDGET });
  expectInvariant(view);
  expect(view.state).toBe("partial");
  expect(view.progress.fetched).toBe(BUDGET);
  const rows = c.store.read.$client
    .query<{ url: string }, [string]>("SELECT url FROM pages WHERE domain = ?")
    .all(DOMAIN);
  console.log(
    c.store.read.$client.query("SELECT url, bucket, depth, source, priority FROM job_urls").all(),
  );
  return new Set(rows.map((r) => new URL(r.url).pathname));
}

test("a small budget reaches the deep content pages, not the wide index pages nearer home", async () => {
  const fetched = await fetchedWith("value");
  expect(CONTENT.filter((p) => !fetched.has(p))).toEqual([]);
  const index = [...fetched].filter((p) => p.startsWith("/tag/") || p.startsWith("/archive/"));
  expect(index.length).toBeLessThanOrEqual(BUDGET - CONTENT.length + 1);
});

test("breadth first (WEBCORPUS_FRONTIER_ORDER=bfs, for benchmarks) spends it on the index pages", async () => {
  const fetched = await fetchedWith("bfs");
  const core = CONTENT.filter((p) => p.startsWith("/docs/core/") && fetched.has(p));
  expect(core).toEqual([]);
  expect([...fetched].filter((p) => p.startsWith("/tag/")).length).toBeGreaterThan(10);
});
