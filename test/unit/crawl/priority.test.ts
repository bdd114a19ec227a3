import { describe, expect, test } from "bun:test";
import {
  BODY_LINK_MAX,
  INDEX_PENALTY,
  indexShaped,
  priorityOf,
  rerankAt,
  templateSoFar,
  translationKey,
} from "../../../src/crawl/priority.ts";

const link = (url: string, depth: number, bodyLinks = 0) =>
  priorityOf({ url, depth, source: "link", bodyLinks });

describe("indexShaped", () => {
  test.each([
    "https://docs.python.org/3/genindex.html",
    "https://docs.python.org/3/genindex-A.html",
    "https://docs.python.org/3/py-modindex.html",
    "https://www.postgresql.org/docs/15/bookindex.html",
    "https://blog.example.com/tag/rust/",
    "https://blog.example.com/tags/rust",
    "https://blog.example.com/category/news/",
    "https://blog.example.com/archive/2023/",
    "https://blog.example.com/page/2/",
    "https://blog.example.com/2024/05/",
    "https://example.com/search?q=x",
    "https://example.com/search.html",
    "https://example.com/posts?page=3",
  ])("%s indexes other pages", (url) => {
    expect(indexShaped(url)).toBe(true);
  });

  test.each([
    "https://docs.python.org/3/library/stdtypes.html",
    "https://docs.python.org/3/tutorial/index.html",
    "https://docs.python.org/3/library/asyncio-task.html",
    "https://blog.example.com/2024/05/a-post-title",
    "https://example.com/pages-of-history",
    "https://example.com/",
    "not a url",
  ])("%s is content", (url) => {
    expect(indexShaped(url)).toBe(false);
  });
});

describe("priorityOf", () => {
  test("the entry page first", () => {
    expect(priorityOf({ url: "https://a.test/", depth: 0, source: "entry" })).toBe(-1);
  });

  test("without other signals, nearer first (breadth first)", () => {
    expect(link("https://a.test/x", 1)).toBeLessThan(link("https://a.test/y", 2));
    expect(link("https://a.test/y", 2)).toBeLessThan(link("https://a.test/z", 3));
  });

  test("content pages before index-shaped pages of the same depth and of the next levels", () => {
    const content = link("https://a.test/docs/guide", 4);
    expect(content).toBeLessThan(link("https://a.test/genindex-A.html", 2));
    expect(link("https://a.test/tag/x", 2)).toBe(link("https://a.test/x", 2 + INDEX_PENALTY));
  });

  test("body links bring a page ahead, more links further, within a bound", () => {
    const none = link("https://a.test/lib/stdtypes", 3);
    const few = link("https://a.test/lib/stdtypes", 3, 3);
    const many = link("https://a.test/lib/stdtypes", 3, 60);
    const huge = link("https://a.test/lib/stdtypes", 3, 1e9);
    expect(few).toBeLessThan(none);
    expect(many).toBeLessThan(few);
    // A deep page cited from many pages goes ahead of a shallow page nobody cites.
    expect(many).toBeLessThan(link("https://a.test/lib/other", 2));
    expect(huge).toBe(link("https://a.test/lib/stdtypes", 3, 2 ** BODY_LINK_MAX * 1e3));
    // ... but never ahead of the entry page's own links
    expect(huge).toBeGreaterThan(1);
    expect(link("https://a.test/t", 1)).toBeLessThanOrEqual(1);
    expect(link("https://a.test/t", 1, 5)).toBeLessThan(link("https://a.test/t", 1));
    expect(link("https://a.test/tags/", 1)).toBeGreaterThan(link("https://a.test/t", 1));
  });

  test("body links outweigh template links: a link on most pages counts for nothing", () => {
    // citations.ts's rule, as the job applies it while crawling
    expect(templateSoFar(9, 10, 0.5, 4)).toBe(true);
    expect(templateSoFar(3, 10, 0.5, 4)).toBe(false);
    expect(templateSoFar(3, 3, 0.5, 4)).toBe(false); // too few pages to tell
    const body = link("https://a.test/cited", 2, 3);
    const template = link("https://a.test/nav", 2, 0);
    expect(body).toBeLessThan(template);
  });

  test("sitemap entries rank with depth-1 links; a stated priority moves them", () => {
    const sitemap = (sitemapPriority: number | null) =>
      priorityOf({ url: "https://a.test/p", depth: 1, source: "sitemap", sitemapPriority });
    expect(sitemap(null)).toBeGreaterThan(link("https://a.test/a/b", 1));
    expect(sitemap(null)).toBeLessThan(link("https://a.test/a/b", 2));
    expect(sitemap(1)).toBeLessThan(sitemap(0.5));
    expect(sitemap(0.5)).toBe(sitemap(null));
    expect(sitemap(0)).toBeGreaterThan(sitemap(0.5));
    expect(sitemap(1)).toBeGreaterThan(1);
    expect(sitemap(0)).toBeLessThan(link("https://a.test/q", 3));
    expect(sitemap(7)).toBe(sitemap(1)); // clamped
  });

  test("a recent lastmod goes a little ahead; an old or future one does not", () => {
    const now = Date.parse("2026-06-01");
    const at = (lastmod: string | null) =>
      priorityOf({ url: "https://a.test/p", depth: 1, source: "sitemap", lastmod, nowMs: now });
    expect(at("2026-05-30")).toBeLessThan(at("2025-12-01"));
    expect(at("2025-12-01")).toBeLessThan(at(null));
    expect(at("2020-01-01")).toBe(at(null));
    expect(at("2027-01-01")).toBe(at(null));
    expect(at(null) - at("2026-06-01")).toBeLessThanOrEqual(0.25);
  });

  test("a queued URL is ranked again at a few counts of its body links, not at each", () => {
    const at = Array.from({ length: 100 }, (_, i) => i).filter(rerankAt);
    expect(at).toEqual([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96]);
  });
});

describe("translationKey", () => {
  test("the translations of a page share a key", () => {
    const en = translationKey("https://debian-handbook.info/browse/en-US/stable/apt.html");
    expect(en).toBe("debian-handbook.info/browse/*/stable/apt.html");
    expect(translationKey("https://debian-handbook.info/browse/pt_BR/stable/apt.html")).toBe(en);
    expect(translationKey("https://example.com/fr/docs/guide?x=1")).toBe(
      translationKey("https://example.com/de/docs/guide?x=1"),
    );
  });

  test("no locale segment, no key; other pages, other keys", () => {
    expect(translationKey("https://docs.python.org/3/library/os.html")).toBeNull();
    expect(translationKey("https://example.com/api/guide")).toBeNull();
    expect(translationKey("not a url")).toBeNull();
    expect(translationKey("https://example.com/en/a")).not.toBe(
      translationKey("https://example.com/en/b"),
    );
  });
});
