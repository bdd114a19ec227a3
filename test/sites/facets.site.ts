/**
 * Facets of real pages of the Debian doc sites (unpacked under $WEBCORPUS_DOCS_ROOT or
 * /work/cache/root), extracted as the crawler extracts them.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractDocument } from "../../src/extract/extract-document.ts";
import { scorePage } from "../../src/facets/score-page.ts";

// Browsers, subprocesses and real sites: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(120_000);

const ROOT = Bun.env.WEBCORPUS_DOCS_ROOT ?? "/work/cache/root";

function score(file: string, url: string) {
  const doc = extractDocument(readFileSync(join(ROOT, "usr/share/doc", file)), url);
  return scorePage(doc, url);
}

describe("facets of the Debian doc sites", () => {
  test("Python's library reference is API reference for developers, with code", () => {
    const { facets } = score(
      "python3.11/html/library/os.path.html",
      "https://docs.python.org/3.11/library/os.path.html",
    );
    expect(facets.type).toBe("api_reference");
    expect(facets.format).toBe("reference");
    expect(facets.audience).toBe("developers");
    expect(facets.has_code).toBe(true);
    expect(facets.locale).toBe("en");
    const legal = score(
      "postgresql-doc-15/html/legalnotice.html",
      "https://www.postgresql.org/docs/15/legalnotice.html",
    ).facets;
    expect(facets.technicality).toBeGreaterThan(legal.technicality + 0.2);
  });

  test("tables of contents and indexes are listings", () => {
    for (const [file, url] of [
      ["python3.11/html/contents.html", "https://docs.python.org/3.11/contents.html"],
      ["python3.11/html/genindex-A.html", "https://docs.python.org/3.11/genindex-A.html"],
      ["python3.11/html/genindex-all.html", "https://docs.python.org/3.11/genindex-all.html"],
      [
        "postgresql-doc-15/html/bookindex.html",
        "https://www.postgresql.org/docs/15/bookindex.html",
      ],
    ] as const) {
      const { facets } = score(file, url);
      expect([url, facets.type, facets.format]).toEqual([url, "listing", "listing"]);
    }
    // PostgreSQL's front page is its table of contents: documentation shown as a listing.
    const front = score(
      "postgresql-doc-15/html/index.html",
      "https://www.postgresql.org/docs/15/index.html",
    ).facets;
    expect(front.format).toBe("listing");
    // The handbook's front page: a title page and a legal notice, then the whole contents.
    for (const lang of ["en-US", "fr-FR"]) {
      const handbook = score(
        `debian-handbook/html/${lang}/index.html`,
        `https://debian-handbook.info/browse/${lang}/stable/index.html`,
      ).facets;
      expect([lang, handbook.format]).toEqual([lang, "listing"]);
    }
    // A chapter of prose with a few links is not.
    const chapter = score(
      "debian-handbook/html/en-US/sect.apt-get.html",
      "https://debian-handbook.info/browse/en-US/stable/sect.apt-get.html",
    ).facets;
    expect(chapter.format).not.toBe("listing");
  });

  test("PostgreSQL's SQL command pages are reference; its tutorial is a tutorial", () => {
    const select = score(
      "postgresql-doc-15/html/sql-select.html",
      "https://www.postgresql.org/docs/15/sql-select.html",
    ).facets;
    expect(select.type).toBe("api_reference");
    expect(select.topics).toContain("databases");
    const tutorial = score(
      "postgresql-doc-15/html/tutorial-createdb.html",
      "https://www.postgresql.org/docs/15/tutorial-createdb.html",
    ).facets;
    expect(tutorial.type).toBe("docs");
    expect(tutorial.format).toBe("tutorial");
  });

  test("the handbook's translations get their locale, untranslated pages English", () => {
    const de = score(
      "debian-handbook/html/de-DE/apt.html",
      "https://debian-handbook.info/browse/de-DE/stable/apt.html",
    );
    expect(de.facets.locale).toBe("de-DE");
    const ja = score(
      "debian-handbook/html/ja-JP/apt.html",
      "https://debian-handbook.info/browse/ja-JP/stable/apt.html",
    );
    expect(ja.facets.locale).toBe("ja-JP");
    const untranslated = score(
      "debian-handbook/html/fr-FR/sect.config-printing.html",
      "https://debian-handbook.info/browse/fr-FR/stable/sect.config-printing.html",
    );
    expect(untranslated.facets.locale).toBe("en");
    expect(untranslated.explain.locale.some((r) => r.startsWith("ignored fr-FR"))).toBe(true);
  });

  test("the same section in two languages is not a near-duplicate; a page is one of itself", () => {
    const a = score(
      "debian-handbook/html/de-DE/apt.html",
      "https://debian-handbook.info/browse/de-DE/stable/apt.html",
    );
    const b = score(
      "debian-handbook/html/en-US/apt.html",
      "https://debian-handbook.info/browse/en-US/stable/apt.html",
    );
    expect(a.simhash).not.toBe(b.simhash);
    const again = score(
      "debian-handbook/html/de-DE/apt.html",
      "https://debian-handbook.info/browse/de-DE/stable/apt.html",
    );
    expect(again.simhash).toBe(a.simhash);
  });
});
