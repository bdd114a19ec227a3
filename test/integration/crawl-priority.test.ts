/**
 * The frontier's order under a budget (issue 32 §2): a site whose content sits deep below a wide
 * set of index pages (tags, pagination) nearer the home page. Breadth-first, the budget goes to
 * the near index pages; in expected-value order, to the content. Then: only links in page bodies
 * rank a URL, and every tenth visit goes to the next sitemap URL of a spread sample.
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

/** Crawls `pages` on `domain` with `budget`; the paths of the pages it stored. */
async function storedPaths(
  domain: string,
  pages: Record<string, string>,
  budget: number,
  order: "value" | "bfs" = "value",
): Promise<string[]> {
  const other = serveSite(domain, pages);
  const c = crawler({
    CONNECT_TO: other.connectTo(),
    HOST_CONCURRENCY: "1",
    MAX_CONCURRENCY: "1",
    FRONTIER_ORDER: order,
  });
  try {
    const view = await c.crawl(domain, { budget });
    expectInvariant(view);
    return c.store.read.$client
      .query<{ url: string }, [string]>("SELECT url FROM pages WHERE domain = ?")
      .all(domain)
      .map((r) => new URL(r.url).pathname);
  } finally {
    c.close();
    await other.stop();
  }
}

test("only links in page bodies rank a URL: sidebar links, however many, do not", async () => {
  const GUIDES = 10;
  const pages: Record<string, string> = {
    "/robots.txt": "User-agent: *\nAllow: /\n",
    "/": page(
      "Mixed",
      `<p>${PROSE}</p><p>${Array.from({ length: GUIDES }, (_, i) => `<a href="/guide/g${i}.html">Guide ${i}</a>`).join(" ")}</p>`,
    ),
  };
  for (let i = 0; i < GUIDES; i++) {
    // Four sidebar links a page, each side page on four of the ten guides (not template).
    const side = [0, 1, 2, 3].map((k) => `<a href="/side/s${(i + k) % GUIDES}.html">Side</a>`);
    pages[`/guide/g${i}.html`] = page(
      `Guide ${i}`,
      `<p>${PROSE} See <a href="/core/k${i % 5}.html">core ${i % 5}</a>.</p>`,
      side.join(" "),
    );
    pages[`/side/s${i}.html`] = page(`Side ${i}`, `<p>${PROSE} Side ${i}.</p>`);
  }
  for (let k = 0; k < 5; k++) pages[`/core/k${k}.html`] = page(`Core ${k}`, `<p>${PROSE}</p>`);
  const stored = await storedPaths("mixed.test", pages, 1 + GUIDES + 5);
  expect(stored.filter((p) => p.startsWith("/core/")).length).toBe(5);
  expect(stored.filter((p) => p.startsWith("/side/"))).toEqual([]);
});

test("every tenth visit takes the next URL of a spread sample of the sitemap", async () => {
  const N = 30;
  const sitemap = Array.from(
    { length: N },
    (_, i) => `<url><loc>http://sampled.test/s/s${i}.html</loc></url>`,
  );
  const pages: Record<string, string> = {
    "/robots.txt": "User-agent: *\nSitemap: http://sampled.test/sitemap.xml\n",
    "/sitemap.xml": `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemap.join("")}</urlset>`,
    "/": page(
      "Sampled",
      `<p>${PROSE}</p><p>${Array.from({ length: N }, (_, i) => `<a href="/a/a${i}.html">A ${i}</a>`).join(" ")}</p>`,
    ),
  };
  for (let i = 0; i < N; i++) {
    pages[`/a/a${i}.html`] = page(`A ${i}`, `<p>${PROSE} A ${i}.</p>`);
    pages[`/s/s${i}.html`] = page(`S ${i}`, `<p>${PROSE} S ${i}.</p>`);
  }
  const sampled = (await storedPaths("sampled.test", pages, 21)).filter((p) => p.startsWith("/s/"));
  expect(sampled.length).toBe(2); // visits 10 and 20
  const bfs = await storedPaths("sampled.test", pages, 21, "bfs");
  expect(bfs.filter((p) => p.startsWith("/s/"))).toEqual([]);
});

test("links seen in several languages rank every translation of the page they link", async () => {
  const LANGS = ["en", "fr", "de", "es"];
  const SECTIONS = ["a", "b", "c", "d"];
  const pages: Record<string, string> = {
    "/robots.txt": "User-agent: *\nAllow: /\n",
    "/": page(
      "Polyglot",
      `<p>${PROSE}</p><p>${LANGS.map((l, i) => `<a href="/${l}/${SECTIONS[i]}.html">${l}</a>`).join(" ")} <a href="/en/p.html">p</a></p>`,
    ),
    "/en/p.html": page("P", `<p>${PROSE} <a href="/en/rival.html">rival</a></p>`),
  };
  // Each section links its own language's target: four pages, four sections, four languages.
  LANGS.forEach((l, i) => {
    const rival = l === "en" ? ' <a href="/en/rival.html">rival</a>' : "";
    pages[`/${l}/${SECTIONS[i]}.html`] = page(
      `Section ${SECTIONS[i]}`,
      `<p>${PROSE} <a href="/${l}/target.html">target</a>${rival}</p>`,
    );
    pages[`/${l}/target.html`] = page(`Target ${l}`, `<p>${PROSE} Target.</p>`);
  });
  pages["/en/rival.html"] = page("Rival", `<p>${PROSE} Rival.</p>`);
  // The home page, its five links, then one more: a target (four sections link the page in
  // their languages), not the rival (two English pages link it).
  const stored = await storedPaths("polyglot.test", pages, 7);
  expect(stored.filter((p) => p.endsWith("/target.html")).length).toBe(1);
  expect(stored).not.toContain("/en/rival.html");
});
