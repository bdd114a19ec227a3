/** The page-count estimate: its statistics, and its range on simulated crawls of a site. */
import { expect, test } from "bun:test";
import {
  chao2,
  chapman,
  poissonRateHigh,
  wilson,
} from "../../../src/services/capture-recapture.ts";
import { estimate, gather } from "../../../src/services/estimate.ts";
import {
  simulateCrawl,
  syntheticSite,
  truePages,
  withoutSitemap,
} from "../../helpers/crawl-sim.ts";

test("Wilson interval", () => {
  expect(wilson(0, 0)).toEqual([0, 1]);
  const [low, high] = wilson(50, 50);
  expect(low).toBeGreaterThan(0.92);
  expect(low).toBeLessThan(0.94);
  expect(high).toBe(1);
  const [l2, h2] = wilson(5, 10);
  expect(l2).toBeLessThan(0.5);
  expect(h2).toBeGreaterThan(0.5);
  expect(Math.abs(0.5 - l2 - (h2 - 0.5))).toBeLessThan(1e-9);
});

test("Chapman and Chao2", () => {
  const [nHat, low, high] = chapman(100, 100, 50);
  expect(nHat).toBeCloseTo((101 * 101) / 51 - 1, 9);
  expect(low).toBeGreaterThanOrEqual(150);
  expect(low).toBeLessThan(nHat);
  expect(high).toBeGreaterThan(nHat);
  // identical captures: the population is what both saw
  expect(chapman(30, 30, 30)).toEqual([30, 30, 30]);
  expect(chao2(40, 0, 5, 10)).toEqual([40, 40, 40]);
  const [c, cl, ch] = chao2(40, 10, 5, 10);
  expect(c).toBeCloseTo(40 + (0.9 * 100) / 10, 9);
  expect(cl).toBeGreaterThanOrEqual(40);
  expect(cl).toBeLessThan(c);
  expect(ch).toBeGreaterThan(c);
  // no URL linked twice: the bias-corrected form, still a finite interval
  const [d, dl, dh] = chao2(40, 6, 0, 10);
  expect(d).toBeCloseTo(40 + (0.9 * 6 * 5) / 2, 9);
  expect(dl).toBeLessThanOrEqual(d);
  expect(Number.isFinite(dh)).toBe(true);
});

test("the Poisson rate bound is above the rate seen and tightens with evidence", () => {
  expect(poissonRateHigh(0, 12)).toBeGreaterThan(0); // no new URL seen is not proof of none
  for (const [count, pages] of [
    [6, 12],
    [60, 120],
    [600, 1200],
  ] as const) {
    expect(poissonRateHigh(count, pages)).toBeGreaterThan(count / pages);
  }
  const widths = [6, 60, 600].map((n) => poissonRateHigh(n, 2 * n) - 0.5);
  expect(widths).toEqual([...widths].sort((a, b) => b - a));
  expect(widths[2]).toBeLessThan(0.1);
});

test("an empty ledger gives a zero range at low confidence, never a single guess", () => {
  const { estimate: est } = estimate(
    gather({ ledger: [], evidence: [], links: [], sourceTimes: [] }),
  );
  expect(est).toEqual({
    low: 0,
    high: 0,
    confidence: 0.5,
    method: "confirmed pages; frontier x Wilson yield",
  });
});

const site = syntheticSite(1200);
const truth = truePages(site);

test("with a sitemap: the range covers the true count and narrows as the budget grows", () => {
  const widths: number[] = [];
  for (const budget of [50, 200, 600]) {
    const { estimate: est, evidence } = estimate(gather(simulateCrawl(site, budget)));
    expect({ budget, est, covered: est.low <= truth && truth <= est.high }).toMatchObject({
      covered: true,
    });
    expect(est.low).toBeLessThan(est.high);
    expect(est.confidence).toBeGreaterThanOrEqual(0.8);
    expect(est.method).toContain("Chapman");
    expect(evidence.sitemap_urls).toBe(truth);
    widths.push(est.high - est.low);
  }
  // Narrower with four times the budget. (At 600 the range widens again a little: the crawl
  // then knows more linked PDFs and dead links, whose yield it cannot tell yet.)
  expect(widths[1]).toBeLessThan(widths[0] ?? 0);
});

test("links alone (no sitemap): a wider range, still covering the true count", () => {
  const bare = withoutSitemap(site);
  const withSitemap = estimate(gather(simulateCrawl(site, 200))).estimate;
  const widths: number[] = [];
  for (const budget of [50, 200]) {
    const { estimate: est } = estimate(gather(simulateCrawl(bare, budget)));
    expect({ budget, est, covered: est.low <= truth && truth <= est.high }).toMatchObject({
      covered: true,
    });
    expect(est.method).toContain("Chao2");
    widths.push(est.high - est.low);
  }
  expect(widths[1]).toBeGreaterThan(withSitemap.high - withSitemap.low);
});

test("a crawl that fetched everything pins the count", () => {
  const rows = simulateCrawl(site, 10_000);
  const { estimate: est } = estimate(gather(rows));
  expect(est.low).toBe(truth);
  expect(est.high).toBeLessThanOrEqual(truth + 1);
});

test("the crawler's discovery flags replace the ledger's first source", () => {
  const rows = simulateCrawl(site, 200);
  const before = estimate(gather(rows));
  const flags = new Map<string, { bySitemap: boolean; byLink: boolean }>();
  for (const row of rows.ledger) {
    if (row.source === "sitemap") flags.set(row.url, { bySitemap: true, byLink: false });
  }
  for (const l of rows.links) {
    const f = flags.get(l.target) ?? { bySitemap: false, byLink: false };
    flags.set(l.target, { ...f, byLink: true });
  }
  const evidence = [...flags].map(([url, f]) => ({ url, ...f }));
  const after = estimate(gather({ ...rows, evidence }));
  expect(after.evidence.sitemap_urls).toBe(before.evidence.sitemap_urls);
  expect(after.evidence.sitemap_and_linked).toBe(before.evidence.sitemap_and_linked);
  expect(after.estimate).toEqual(before.estimate);
});
