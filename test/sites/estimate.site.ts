/**
 * The page-count estimate on the link graphs of real documentation sites (the Debian packages of
 * the PostgreSQL 15 and Python 3.11 docs), crawled breadth first by the simulation of
 * test/helpers/crawl-sim.ts at the reference's budgets (50 and 200): the range covers the true
 * number of pages and narrows as the budget grows, with and without a sitemap. Real crawls of the
 * PostgreSQL docs at budgets 50, 200 and in full: crawl-docs.site.ts.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { estimate, gather } from "../../src/services/estimate.ts";
import {
  type SiteGraph,
  simulateCrawl,
  truePages,
  type UrlKind,
  withoutSitemap,
} from "../helpers/crawl-sim.ts";

// Browsers, subprocesses and real sites: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(120_000);

const DOCS = "/work/cache/root/usr/share/doc";
const HREF = /<a\s[^>]*href="([^"#]+)(?:#[^"]*)?"/gi;

/** The site's pages and links as a crawler meets them: every file it links to, if it exists. */
function docSite(dir: string, origin: string, prefix: string, home: string): SiteGraph {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".html"),
  );
  const url = (file: string) => `${origin}${prefix}${file}`;
  const kinds = new Map<string, UrlKind>();
  for (const f of files) kinds.set(url(f), "page");
  const links = new Map<string, string[]>();
  for (const f of files) {
    const out: string[] = [];
    for (const m of readFileSync(join(dir, f), "utf8").matchAll(HREF)) {
      let target: URL;
      try {
        target = new URL(m[1] ?? "", url(f));
      } catch {
        continue;
      }
      if (target.origin !== origin || target.pathname.includes("/_sources/")) continue;
      target.search = "";
      const href = target.href;
      if (!kinds.has(href)) kinds.set(href, /\.html?$/.test(href) ? "missing" : "notHtml");
      out.push(href);
    }
    links.set(url(f), out);
  }
  const sitemap = files.map(url);
  return { home: url(home), kinds, links, sitemap };
}

const sites: [string, () => SiteGraph][] = [
  [
    "postgresql-doc-15",
    () =>
      docSite(
        join(DOCS, "postgresql-doc-15/html"),
        "http://www.postgresql.org",
        "/docs/15/",
        "index.html",
      ),
  ],
  [
    "python3.11",
    () => docSite(join(DOCS, "python3.11/html"), "http://docs.python.org", "/", "index.html"),
  ],
];

test.each(sites)("%s: with its sitemap the range covers the truth and narrows", (name, load) => {
  expect(existsSync(join(DOCS, name))).toBe(true);
  const site = load();
  const truth = truePages(site);
  expect(truth).toBeGreaterThan(500);
  const widths: number[] = [];
  for (const budget of [50, 200]) {
    const { estimate: est } = estimate(gather(simulateCrawl(site, budget)));
    console.log(`${name} budget ${budget}: true ${truth}, estimate ${JSON.stringify(est)}`);
    expect({ budget, est, covered: est.low <= truth && truth <= est.high }).toMatchObject({
      covered: true,
    });
    expect(est.confidence).toBeGreaterThanOrEqual(0.8);
    expect(est.method).toContain("Chapman");
    widths.push(est.high - est.low);
  }
  expect(widths[1]).toBeLessThan(widths[0] ?? 0);
});

test.each(sites)("%s: links alone (no sitemap) still cover the truth", (name, load) => {
  const site = withoutSitemap(load());
  // without a sitemap, the pages no link reaches are not the site's to a crawler
  const reachable = new Set<string>([site.home]);
  const queue = [site.home];
  while (queue.length) {
    for (const t of site.links.get(queue.shift() ?? "") ?? []) {
      if (!reachable.has(t)) {
        reachable.add(t);
        queue.push(t);
      }
    }
  }
  const truth = [...reachable].filter((u) => site.kinds.get(u) === "page").length;
  for (const budget of [50, 200]) {
    const { estimate: est } = estimate(gather(simulateCrawl(site, budget)));
    console.log(
      `${name} links only, budget ${budget}: true ${truth}, estimate ${JSON.stringify(est)}`,
    );
    expect({ budget, est, covered: est.low <= truth && truth <= est.high }).toMatchObject({
      covered: true,
    });
    expect(est.method).toContain("Chao2");
  }
});
