/** Extraction of real documentation pages (Debian doc packages: Python, PostgreSQL, the Debian
 * Handbook in two languages), saved under test/fixtures/extract. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtractedDocument } from "../../../src/extract/document.ts";
import { extractDocument } from "../../../src/extract/extract-document.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/extract");
const PY_URL = "https://docs.python.org/3.11/library/tomllib.html";
const PG_URL = "https://www.postgresql.org/docs/15/datatype-boolean.html";
const HB_URL = "http://debian-handbook.info/browse/LANG/stable/sect.rights-management.html";

function page(name: string, url: string): ExtractedDocument {
  return extractDocument(new Uint8Array(readFileSync(join(FIXTURES, name))), url);
}

function fences(md: string): [string, string][] {
  return [...md.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => [m[1] ?? "", m[2] ?? ""]);
}

describe("Sphinx (Python docs)", () => {
  const doc = page("python-tomllib.html", PY_URL);

  test("code blocks are fenced with their language and keep indentation", () => {
    const blocks = fences(doc.markdown);
    expect(blocks.map(([lang]) => lang)).toContain("python");
    const code = blocks.map(([, body]) => body).join("\n");
    expect(code).toContain('with open("pyproject.toml", "rb") as f:');
    expect(code).toContain("    data = tomllib.load(f)");
    // A bare <pre> (no <code>) is a code block, not escaped prose.
    expect(doc.markdown).not.toContain("\\_\\_");
    expect(doc.hasCode).toBe(true);
  });

  test("metadata", () => {
    expect(doc.title?.startsWith("tomllib")).toBe(true);
    expect(doc.language).toBe("en");
    expect(doc.words).toBeGreaterThan(300);
  });

  test("the conversion table keeps every row as a GFM table", () => {
    const rows = doc.markdown.split("\n").filter((l) => l.startsWith("| "));
    expect(rows[0]).toStartWith("| TOML");
    expect(rows[0]).toContain("Python");
    expect(rows.some((r) => r.includes("| table |") && r.includes("dict"))).toBe(true);
    expect(rows.some((r) => r.includes("local date-time") && r.includes("datetime.datetime"))).toBe(
      true,
    );
    expect(new Set(rows.map((r) => r.split(" | ").length)).size).toBe(1);
    expect(doc.markdown).toContain("|---|---|");
  });

  test("API signatures are code, headings are ATX", () => {
    expect(doc.markdown).toContain("`tomllib.load(fp, /, *, parse_float=float)`");
    expect(doc.markdown).toMatch(/^## Examples$/m);
    expect(doc.markdown).not.toContain("¶");
  });

  test("navigation links are template, content links body", () => {
    const positions = new Map<string, Set<string>>();
    for (const l of doc.links) {
      positions.set(l.anchorText, (positions.get(l.anchorText) ?? new Set()).add(l.position));
    }
    expect([...(positions.get("modules") ?? [])]).toEqual(["template"]);
    expect([...(positions.get("Tomli-W package") ?? [])]).toEqual(["body"]);
    expect(positions.get("next")?.has("template")).toBe(true);
    const body = doc.links.filter((l) => l.position === "body");
    expect(body.some((l) => l.url === "https://pypi.org/project/tomli-w/")).toBe(true);
    expect(doc.links.every((l) => !l.url.includes("#"))).toBe(true);
  });
});

describe("Sphinx: short pages keep their own content, never the footer", () => {
  test("a one-paragraph page with its <h1>", () => {
    const doc = page("python-concurrent.html", "http://docs.python.org/library/concurrent.html");
    expect(doc.markdown).toStartWith("# The `concurrent` package\n");
    expect(doc.markdown).toContain("Currently, there is only one module in this package:");
    expect(doc.markdown).not.toContain("Python Software Foundation");
    const futures = doc.links.filter((l) => l.url.endsWith("/concurrent.futures.html"));
    expect(futures.map((l) => l.position)).toContain("body");
  });

  test("a page without a heading: the body of role=main", () => {
    const doc = page(
      "python-setuptools-disclaimer.html",
      "http://docs.python.org/distutils/_setuptools_disclaimer.html",
    );
    expect(doc.markdown).toContain("This document is being retained solely until the `setuptools`");
    expect(doc.markdown).not.toContain("Copyright");
    expect(doc.words).toBeLessThan(40);
  });
});

describe("DocBook (PostgreSQL docs)", () => {
  const doc = page("pg-datatype-boolean.html", PG_URL);

  test("table and program listing", () => {
    expect(doc.markdown).toContain("| Name | Storage Size | Description |");
    expect(doc.markdown).toContain("| `boolean` | 1 byte | state of true or false |");
    const code = fences(doc.markdown)
      .map(([, body]) => body)
      .join("\n");
    expect(code).toContain("CREATE TABLE test1 (a boolean, b text);");
    expect(code).toContain(" t | sic est");
    expect(doc.markdown).toStartWith("## 8.6. Boolean Type");
  });

  test("the navigation header and footer are not content", () => {
    expect(doc.text.split("\n")[0]).not.toContain("Prev");
    expect(doc.markdown.slice(-200)).not.toContain("Next");
  });

  test("link positions", () => {
    const pairs = new Set(doc.links.map((l) => `${l.anchorText}|${l.position}`));
    expect(pairs.has("Prev|template")).toBe(true);
    expect(pairs.has("Home|template")).toBe(true);
    expect(pairs.has("Table 8.19|body")).toBe(true);
    expect(doc.links.every((l) => l.url.startsWith("https://www.postgresql.org/"))).toBe(true);
  });
});

describe("Publican (Debian Handbook): sidebars and their code are content", () => {
  const cases = [
    {
      lang: "en-US",
      titles: ["SECURITY", "TIP* Recursive operation", "GOING FURTHER"],
      prose: "Linux is definitely a multi-user system",
    },
    {
      lang: "fr-FR",
      titles: ["SÉCURITÉ", "ASTUCE* Application récursive", "POUR ALLER PLUS LOIN"],
      prose: "Linux est résolument multi-utilisateur",
    },
  ];
  for (const { lang, titles, prose } of cases) {
    test(lang, () => {
      const file = `handbook-${lang.slice(0, 2)}-rights-management.html`;
      const doc = page(file, HB_URL.replace("LANG", lang));
      expect(doc.hasCode).toBe(true);
      expect(doc.markdown).toStartWith("## 9.3. ");
      expect(doc.text).toContain(prose);
      for (const title of titles) expect(doc.markdown).toContain(title);
      const blocks = fences(doc.markdown);
      expect(blocks).toHaveLength(1);
      const code = blocks[0]?.[1] ?? "";
      expect(code).toContain("$ chmod u+X test.txt");
      expect(code).toContain("-rwxr--r-x 1 daniel daniel 0 18. Nov 01:07 test.txt");
      expect(doc.markdown).toContain("`umask`");
      for (const chrome of [
        "Download the ebook",
        "Documentation Site",
        "Product Site",
        "9.4. ",
        "9.2. ",
      ]) {
        expect(doc.markdown).not.toContain(chrome);
      }
      expect(doc.markdown.trimEnd()).toEndWith("(5) contains more information.");
      const positions = doc.links.map((l) => [l.anchorText, l.position] as const);
      expect(positions).toContainEqual(["Download the ebook", "template"]);
      expect(positions.some(([t, p]) => p === "body" && t.includes("8.9.4"))).toBe(true);
      for (const [t, p] of positions)
        if (t.startsWith("Prev") || t.startsWith("Next")) expect(p).toBe("template");
    });
  }
});
