/** The search evaluation's metrics on hand-made rankings (the reference's test_search_eval.py). */
import { describe, expect, test } from "bun:test";
import { handbookLanguages, loadQueries, restrictedHandbook } from "../../eval/search/corpus.ts";
import { rrf } from "../../eval/search/explore.ts";
import { dedupePages, ndcgAtK, pagePath, recallAtK } from "../../eval/search/metrics.ts";
import type { DocSite, GeneratedFile } from "../../sites/support/doc-sites.ts";

describe("nDCG@10 and recall@10", () => {
  test("a perfect ranking scores one", () => {
    const rel = { "/a.html": 2, "/b.html": 1 };
    expect(ndcgAtK(["/a.html", "/b.html", "/c.html"], rel)).toBeCloseTo(1, 12);
    expect(recallAtK(["/a.html", "/b.html"], rel)).toBe(1);
  });

  test("swapped grades, by hand", () => {
    const rel = { "/a.html": 2, "/b.html": 1 };
    // DCG = (2^1-1)/log2(2) + (2^2-1)/log2(3); ideal = 3/1 + 1/log2(3)
    const expected = (1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3));
    expect(ndcgAtK(["/b.html", "/a.html"], rel)).toBeCloseTo(expected, 12);
  });

  test("a relevant page below the cutoff counts nothing", () => {
    const ranked = [...Array.from({ length: 10 }, (_, i) => `/x${i}.html`), "/a.html"];
    expect(ndcgAtK(ranked, { "/a.html": 2 })).toBe(0);
    expect(recallAtK(ranked, { "/a.html": 2 })).toBe(0);
    expect(recallAtK(ranked, { "/a.html": 2 }, 11)).toBe(1);
  });

  test("a single hit at rank three", () => {
    const ranked = ["/x.html", "/y.html", "/a.html"];
    expect(ndcgAtK(ranked, { "/a.html": 2 })).toBeCloseTo(1 / Math.log2(4), 12);
    expect(recallAtK(ranked, { "/a.html": 2, "/b.html": 1, "/c.html": 1 })).toBeCloseTo(1 / 3, 12);
  });

  test("the ideal ranking is cut at k", () => {
    const rel = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/p${i}.html`, 1]));
    const ranked = Array.from({ length: 10 }, (_, i) => `/p${i}.html`);
    expect(ndcgAtK(ranked, rel)).toBeCloseTo(1, 12);
    expect(recallAtK(ranked, rel)).toBeCloseTo(10 / 12, 12);
  });

  test("empty rankings and unjudged queries", () => {
    expect(ndcgAtK([], { "/a.html": 2 })).toBe(0);
    expect(ndcgAtK(["/a.html"], {})).toBe(0);
    expect(recallAtK(["/a.html"], { "/a.html": 0 })).toBe(0);
  });

  test("dedupe keeps a page's first chunk rank and normalises URLs", () => {
    const urls = [
      "http://docs.python.org/library/json.html#basic-usage",
      "http://docs.python.org/library/json.html",
      "http://docs.python.org/",
      "http://docs.python.org/index.html",
      "http://docs.python.org/library/csv.html",
    ];
    expect(dedupePages(urls)).toEqual(["/library/json.html", "/index.html", "/library/csv.html"]);
    expect(pagePath("http://debian-handbook.info/browse/fr-FR/stable/")).toBe(
      "/browse/fr-FR/stable/index.html",
    );
    expect(ndcgAtK(["/browse/x/index.html"], { "/browse/x/": 2 })).toBeCloseTo(1, 12);
  });
});

test("weighted RRF: scores add over lists, a repeat counts at its best rank", () => {
  expect(rrf({ text: ["a", "b", "c"], vector: ["b", "d", "a"] }, 60)).toEqual(["b", "a", "d", "c"]);
  // Text weighted 2: a (1st in text, 3rd in vector) passes b (2nd, 1st).
  expect(rrf({ text: ["a", "b"], vector: ["b", "x", "a"] }, 1, { text: 2 })[0]).toBe("a");
  expect(rrf({ text: ["a", "a", "b"] }, 10)).toEqual(["a", "b"]);
});

test("the judged query set: ids unique, ~40% held out, grades 1-2, a page of grade 2 each", () => {
  const rows = loadQueries();
  expect(rows.length).toBeGreaterThanOrEqual(150);
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  const holdout = rows.filter((r) => r.split === "holdout").length / rows.length;
  expect(holdout).toBeGreaterThanOrEqual(0.35);
  expect(holdout).toBeLessThanOrEqual(0.45);
  for (const r of rows) {
    expect(["tune", "holdout"]).toContain(r.split);
    expect(r.query.trim().length).toBeGreaterThan(0);
    const grades = Object.values(r.relevant);
    expect(grades.length).toBeGreaterThan(0);
    expect(grades.every((g) => g === 1 || g === 2)).toBe(true);
    expect(grades).toContain(2);
    expect(Object.keys(r.relevant).every((p) => p.startsWith("/"))).toBe(true);
  }
  expect(handbookLanguages(rows)).toEqual(["de-DE", "es-ES", "fr-FR", "ja-JP"]);
});

test("the restricted handbook serves only the chosen books, with a home page listing them", () => {
  const file = (text: string): GeneratedFile => ({
    body: new TextEncoder().encode(text),
    type: "text/xml",
    mtimeMs: 0,
  });
  const full: DocSite = {
    host: "debian-handbook.info",
    aliases: [],
    redirects: { "/browse/stable/": "/browse/en-US/stable/" },
    mounts: ["de-DE", "en-US", "fr-FR"].map((l) => ({
      prefix: `/browse/${l}/stable/`,
      dir: `/books/${l}`,
    })),
    generated: new Map([
      ["/index.html", file("<html>all</html>")],
      ["/sitemaps/home.xml", file("<urlset/>")],
      ["/sitemaps/de-DE.xml", file("<urlset>de</urlset>")],
      ["/sitemaps/en-US.xml", file("<urlset>en</urlset>")],
    ]),
    pages: ["/", "/browse/de-DE/stable/a.html", "/browse/en-US/stable/a.html"],
    sitemaps: [],
    robotsDisallow: ["/get/"],
    robotsExcluded: [],
    allowedPages: [],
    languages: ["de-DE", "en-US", "fr-FR"],
  };
  const site = restrictedHandbook(full, ["de-DE"]);
  expect(site.mounts.map((m) => m.prefix)).toEqual(["/browse/de-DE/stable/"]);
  expect(site.pages).toEqual(["/", "/browse/de-DE/stable/a.html"]);
  expect(site.redirects).toEqual({});
  expect([...site.generated.keys()].sort()).toEqual([
    "/index.html",
    "/robots.txt",
    "/sitemap.xml",
    "/sitemaps/de-DE.xml",
    "/sitemaps/home.xml",
  ]);
  const home = new TextDecoder().decode(site.generated.get("/index.html")?.body);
  expect(home).toContain('href="/browse/de-DE/stable/"');
  expect(home).not.toContain("en-US");
  const index = new TextDecoder().decode(site.generated.get("/sitemap.xml")?.body);
  expect(index).toContain("/sitemaps/de-DE.xml");
  expect(index).not.toContain("en-US");
});
