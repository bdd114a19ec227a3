/**
 * A breadth-first crawl of a site graph, as the crawler records it in its ledger: the rows the
 * page-count estimate reads (`EstimateRows`). Used on a seeded synthetic site (unit tests) and on
 * the link graph of a real documentation site (site suite) while the crawler is built elsewhere.
 */
import type { EstimateRows } from "../../src/services/estimate.ts";
import { prng } from "./prng.ts";

export type UrlKind = "page" | "notHtml" | "missing";

export interface SiteGraph {
  readonly home: string;
  /** Every URL the site answers or links to, with what a fetch of it finds. */
  readonly kinds: ReadonlyMap<string, UrlKind>;
  /** Internal links of each page (targets may be any URL of `kinds`). */
  readonly links: ReadonlyMap<string, readonly string[]>;
  /** URLs the site's sitemaps list (empty: the site has no sitemap). */
  readonly sitemap: readonly string[];
}

export const truePages = (site: SiteGraph): number =>
  [...site.kinds.values()].filter((k) => k === "page").length;

const BUCKET: Readonly<Record<UrlKind, string>> = {
  page: "indexed",
  notHtml: "notHtml",
  missing: "clientError",
};

/**
 * Fetches `budget` URLs: the home page, then links breadth first, then sitemap-only URLs; every
 * URL known and not fetched ends in `budget`. The sitemap is read before any page.
 */
export function simulateCrawl(site: SiteGraph, budget: number): EstimateRows {
  const source = new Map<string, string>();
  const queue: string[] = [];
  for (const url of site.sitemap) source.set(url, "sitemap");
  const enqueue = (url: string, how: string) => {
    if (!source.has(url)) source.set(url, how);
    if (!queued.has(url)) {
      queued.add(url);
      queue.push(url);
    }
  };
  const queued = new Set<string>();
  enqueue(site.home, "home");
  const fetched = new Map<string, number>();
  const linkStats = new Map<string, { sources: number; firstAt: number }>();
  const sourceTimes: number[] = [];
  let head = 0;
  let time = 0;
  const sitemapOnly = site.sitemap.filter((u) => u !== site.home);
  let sitemapNext = 0;
  while (fetched.size < budget) {
    let url = queue[head];
    if (url !== undefined) head += 1;
    else {
      while (sitemapNext < sitemapOnly.length && queued.has(sitemapOnly[sitemapNext] ?? "")) {
        sitemapNext += 1;
      }
      url = sitemapOnly[sitemapNext];
      if (url === undefined) break;
      queued.add(url);
    }
    time += 1;
    fetched.set(url, time);
    if ((site.kinds.get(url) ?? "missing") !== "page") continue;
    sourceTimes.push(time);
    for (const target of new Set(site.links.get(url) ?? [])) {
      const stat = linkStats.get(target);
      if (stat) stat.sources += 1;
      else linkStats.set(target, { sources: 1, firstAt: time });
      enqueue(target, "link");
    }
  }
  const ledger = [...source].map(([url, how]) => ({
    url,
    source: how,
    bucket: fetched.has(url) ? BUCKET[site.kinds.get(url) ?? "missing"] : "budget",
  }));
  return {
    ledger,
    evidence: [],
    links: [...linkStats].map(([target, s]) => ({ target, ...s })),
    sourceTimes,
  };
}

/** The same crawl as if the site had no sitemap: sitemap-only URLs never learned about. */
export function withoutSitemap(site: SiteGraph): SiteGraph {
  return { ...site, sitemap: [] };
}

/**
 * A documentation-like site: `pages` pages in sections, each linking its neighbours, its section's
 * index, the home page and a few random pages; one page in ten links a PDF, one in a hundred a
 * dead page (about the share of dead links in the PostgreSQL docs); the
 * sitemap lists every page.
 */
export function syntheticSite(pages: number, seed = 7): SiteGraph {
  const random = prng(seed);
  const url = (i: number) =>
    i === 0 ? "https://docs.example.org/" : `https://docs.example.org/p/${i}.html`;
  const kinds = new Map<string, UrlKind>();
  const links = new Map<string, string[]>();
  for (let i = 0; i < pages; i++) kinds.set(url(i), "page");
  const section = 40;
  for (let i = 0; i < pages; i++) {
    const out: string[] = [url(0)];
    const start = Math.floor(i / section) * section;
    if (i === 0) for (let s = 1; s < pages; s += section) out.push(url(s));
    if (i === start + 1 || i === 0) {
      for (let j = start + 2; j < Math.min(pages, start + section); j++) out.push(url(j));
    }
    if (i > 1) out.push(url(i - 1));
    if (i + 1 < pages) out.push(url(i + 1));
    for (let k = 0; k < 3; k++) out.push(url(1 + Math.floor(random() * (pages - 1))));
    if (random() < 0.1) {
      const pdf = `https://docs.example.org/files/${i}.pdf`;
      kinds.set(pdf, "notHtml");
      out.push(pdf);
    }
    if (random() < 0.01) {
      const dead = `https://docs.example.org/gone/${i}.html`;
      kinds.set(dead, "missing");
      out.push(dead);
    }
    links.set(url(i), out);
  }
  const sitemap = [...kinds].filter(([, k]) => k === "page").map(([u]) => u);
  return { home: url(0), kinds, links, sitemap };
}
