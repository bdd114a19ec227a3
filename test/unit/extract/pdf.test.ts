import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { extractPdf } from "../../../src/extract/pdf/extract-pdf.ts";
import { pdfDate, pdfTitle } from "../../../src/extract/pdf/pdf-metadata.ts";
import { DEFAULT_PDF_CAPS } from "../../../src/extract/pdf/pdf-source.ts";
import { isPdf } from "../../../src/extract/pdf/pdf-type.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/pdf");
const read = async (name: string) =>
  new Uint8Array(await Bun.file(join(FIXTURES, name)).arrayBuffer());
const URL = "http://pdfs.example/files/doc.pdf";

async function page(name: string) {
  const r = await extractPdf(await read(name), URL);
  if (!r.ok) throw new Error(`${name}: ${r.reason}`);
  return r.doc;
}

async function refusal(name: string, caps = DEFAULT_PDF_CAPS): Promise<string> {
  const r = await extractPdf(await read(name), URL, caps);
  if (r.ok) throw new Error(`${name} was read`);
  return r.reason;
}

describe("extractPdf", () => {
  test("metadata: title, author, date, page count, links", async () => {
    const doc = await page("report.pdf");
    expect(doc.title).toBe("Quarterly Widget Report");
    expect(doc.published).toBe("2026-01-15");
    expect(doc.pdf).toEqual({ pages: 3, pagesRead: 3, author: "Ada Lovelace" });
    expect(doc.description).toBe(
      "PDF, 3 pages, by Ada Lovelace. Widget sales and the new sprocket line",
    );
    expect(doc.links.map((l) => l.url)).toEqual(["http://pdfs.example/about.html"]);
    expect(doc.words).toBeGreaterThan(100);
  });

  test("headings by size and weight, lists, table, code; running footer dropped", async () => {
    const md = (await page("report.pdf")).markdown;
    expect(md).toStartWith("# Quarterly Widget Report\n\n## Sales overview\n\nWidget sales grew");
    expect(md).toContain("### Highlights\n\n- Revenue rose to 4.2 million euros.\n- Returns fell");
    expect(md).toContain(
      "| Region | Units | Growth |\n| --- | --- | --- |\n| North | 12,400 | 8% |\n| South | 9,800 | 5% |",
    );
    expect(md).toContain("1. Open the reseller portal and sign in.\n2. Choose the sprocket");
    expect(md).toContain(
      "```\nwidgets order --model sprocket-9 --qty 40\nwidgets status --last\n```",
    );
    expect(md).toContain("## Outlook");
    expect(md).not.toContain("Widget Corp report, page");
    expect(md).toEndWith("a price review for the classic widget range.");
  });

  test("two columns are read one after the other", async () => {
    const doc = await page("two-column.pdf");
    expect(doc.title).toBe("Two Column Study");
    expect(doc.published).toBe("2025-03-01");
    const md = doc.markdown;
    expect(md).toStartWith("# A Study in Two Columns\n\nAlpha column text begins");
    expect(md).toContain("which a naive reader would interleave with it. The left column ends");
    expect(md.indexOf("The left column ends")).toBeLessThan(md.indexOf("Beta column text"));
    expect(md).toContain("right column and continues the argument of the left.");
  });

  test("a page box that does not start at 0 0 reads the same", async () => {
    const offset = await page("two-column-offset.pdf");
    expect(offset.markdown).toBe((await page("two-column.pdf")).markdown);
  });

  test("a broken cross-reference table is recovered", async () => {
    expect((await page("broken-xref.pdf")).text).toBe("Recovered without an index.");
  });

  test("hostile and broken documents are refused with a reason", async () => {
    expect(await refusal("huge-page-count.pdf")).toBe("declares 5000000 pages, more than 20000");
    expect(await refusal("deep-nesting.pdf")).toMatch(/not a readable PDF|too deeply nested/);
    expect(await refusal("truncated.pdf")).toMatch(/not a readable PDF/);
    expect(await refusal("garbage.pdf")).toMatch(/not a readable PDF/);
    expect(await refusal("no-text.pdf")).toBe("no text in 1 pages (scanned images?)");
  });

  test("caps: pages read, time", async () => {
    const cut = await extractPdf(await read("report.pdf"), URL, {
      ...DEFAULT_PDF_CAPS,
      maxPages: 1,
    });
    expect(cut.ok && cut.doc.pdf).toEqual({ pages: 3, pagesRead: 1, author: "Ada Lovelace" });
    expect(cut.ok && cut.doc.markdown).not.toContain("Outlook");
    expect(await refusal("report.pdf", { ...DEFAULT_PDF_CAPS, timeMs: 0 })).toMatch(
      /took longer than 0 s/,
    );
  });
});

test("isPdf: by type, or by the first bytes when the type says nothing", () => {
  const pdf = new TextEncoder().encode("%PDF-1.7\n");
  const html = new TextEncoder().encode("<html>");
  expect(isPdf("application/pdf; qs=1", html)).toBe(true);
  expect(isPdf("", pdf)).toBe(true);
  expect(isPdf("application/octet-stream", pdf)).toBe(true);
  expect(isPdf("application/octet-stream", html)).toBe(false);
  expect(isPdf("text/html", pdf)).toBe(false);
  expect(isPdf("", new TextEncoder().encode("\r\n  junk\n%PDF-1.4"))).toBe(true);
  expect(isPdf("", new TextEncoder().encode("<p>Save as %PDF-1.7</p>"))).toBe(false);
});

test("pdfDate and pdfTitle", () => {
  expect(pdfDate("D:20100914111103+02'00'")).toBe("2010-09-14");
  expect(pdfDate("D:2019")).toBe("2019-01-01");
  expect(pdfDate("D:19700101")).toBeNull();
  expect(pdfDate("D:29990101")).toBeNull();
  expect(pdfDate("garbage")).toBeNull();
  expect(pdfTitle("Microsoft Word - Plan.docx")).toBeNull();
  expect(pdfTitle("Microsoft Word - Annual Plan")).toBe("Annual Plan");
  expect(pdfTitle("untitled")).toBeNull();
});
