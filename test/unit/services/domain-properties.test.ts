/** Language properties of a site, on the layout of the Debian Administrator's Handbook. */
import { expect, test } from "bun:test";
import { properties } from "../../../src/services/domain-properties.ts";

const LANGS = ["en-US", "de-DE", "fr-FR", "pt-BR", "zh-CN", "ja-JP"];
const SITE = "http://debian-handbook.info";

function handbook() {
  const pages: { locale: string | null; url: string }[] = [{ locale: "en", url: `${SITE}/` }];
  const hreflang: { locale: string | null; hreflang: string; url: string; pageUrl: string }[] = [];
  for (const lang of LANGS) {
    const book = `${SITE}/browse/${lang}/stable/`;
    // the page's locale facet is the bare language: the path names the region
    for (const page of ["index.html", "sect.intro.html", "packaging.html", "apt.html"]) {
      pages.push({ locale: lang.split("-")[0] ?? null, url: `${book}${page}` });
    }
    hreflang.push({ locale: "en", hreflang: lang, url: `${book}index.html`, pageUrl: `${SITE}/` });
  }
  pages.push({ locale: "und", url: `${SITE}/browse/en-US/stable/figures.html` });
  const sitemaps = [`${SITE}/sitemap.xml`, `${SITE}/sitemaps/home.xml`];
  for (const lang of LANGS) sitemaps.push(`${SITE}/sitemaps/${lang}.xml`);
  return { domain: "debian-handbook.info", pages, hreflang, sitemaps };
}

test("one property per language, rooted where its book lives, with its own sitemap", () => {
  const props = properties(handbook());
  expect(props.map((p) => p.locale).sort()).toEqual([...LANGS].sort());
  for (const p of props) {
    expect(p.root_url).toBe(`${SITE}/browse/${p.locale}/stable/`);
    expect(p.sitemaps).toEqual([`${SITE}/sitemaps/${p.locale}.xml`]);
  }
  const en = props.find((p) => p.locale === "en-US");
  // the root page (lang="en") and the page too short to tell a language belong to en-US
  expect(en?.pages).toBe(6);
  expect(props[0]?.locale).toBe("en-US"); // most pages first
  expect(en?.hreflang_alternates.map((a) => a.hreflang).sort()).toEqual(
    LANGS.filter((l) => l !== "en-US").sort(),
  );
  expect(props.reduce((n, p) => n + p.pages, 0)).toBe(handbook().pages.length);
});

test("a language only hreflang names is a property without pages, rooted at its alternate", () => {
  const site = handbook();
  site.hreflang.push({
    locale: "en",
    hreflang: "it-IT",
    url: `${SITE}/browse/it-IT/stable/index.html`,
    pageUrl: `${SITE}/`,
  });
  site.hreflang.push({
    locale: "en",
    hreflang: "es-ES",
    url: "https://elsewhere.org/es/",
    pageUrl: `${SITE}/`,
  });
  const it = properties(site).find((p) => p.locale === "it-IT");
  expect(it).toEqual({
    locale: "it-IT",
    root_url: `${SITE}/browse/it-IT/stable/`,
    pages: 0,
    // no sitemap names it: the sitemaps that name no language, on its host
    sitemaps: [`${SITE}/sitemap.xml`, `${SITE}/sitemaps/home.xml`],
    hreflang_alternates: [],
  });
  expect(properties(site).some((p) => p.locale === "es-ES")).toBe(false);
});

test("a site whose paths name no language is one property at its most common origin", () => {
  const props = properties({
    domain: "example.org",
    pages: [
      { locale: "en", url: "https://www.example.org/" },
      { locale: "en", url: "https://www.example.org/a/b" },
      { locale: "en-GB", url: "https://blog.example.org/post" },
    ],
    hreflang: [],
    sitemaps: ["https://www.example.org/sitemap.xml", "https://blog.example.org/sitemap.xml"],
  });
  expect(props).toEqual([
    {
      locale: "en-GB",
      root_url: "https://www.example.org/",
      pages: 3,
      sitemaps: ["https://www.example.org/sitemap.xml"],
      hreflang_alternates: [],
    },
  ]);
});
