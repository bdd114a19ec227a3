/**
 * PDFs crawled end to end on loopback: the real scheduler, crawl workers (pdf.js in them) and
 * SQLite. A linked PDF becomes a page with markdown, facets, chunks, a search hit, its `.md`,
 * its place in the domain bundle and its citation; a broken one is one entry of the error bucket.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { testConfig } from "../../src/config.ts";
import { HostThrottle } from "../../src/crawl/politeness.ts";
import { CrawlPool } from "../../src/crawl/worker-pool.ts";
import { listJobUrls } from "../../src/db/jobs-repo.ts";
import type { createApp } from "../../src/server/app.ts";
import { appOver, expectInvariant, type SearchCrawler, searchCrawler } from "../helpers/crawl.ts";
import { article, PROSE } from "../helpers/site.ts";

setDefaultTimeout(120_000);

const HOST = "pdfs.example";
const FIXTURES = join(import.meta.dir, "../fixtures/pdf");
const fixture = (name: string) => Bun.file(join(FIXTURES, name)).bytes();

/** Fixtures that must each end as one error entry, with pdf.js's or our reason. */
const HOSTILE = ["huge-page-count.pdf", "deep-nesting.pdf", "garbage.pdf", "no-text.pdf"];
const HOSTILE_REASONS: Record<string, RegExp> = {
  "huge-page-count.pdf": /^unreadable PDF: declares 5000000 pages, more than 20000$/,
  "deep-nesting.pdf": /^unreadable PDF: (not a readable PDF|too deeply nested)/,
  "garbage.pdf": /^unreadable PDF: not a readable PDF/,
  "no-text.pdf": /^unreadable PDF: no text in 1 pages/,
};

const HTML: Record<string, string> = {
  "/": article(
    "Widget Corp",
    `<p>${PROSE}</p><p>Read the <a href="/files/report.pdf">quarterly widget report</a>, the <a href="/files/study.pdf">column study</a> and the <a href="/files/broken.pdf">old catalogue</a>.</p><p>${HOSTILE.map((f) => `<a href="/hostile/${f}">${f}</a>`).join(" ")}</p>`,
  ),
  "/about.html": article("About Widget Corp", `<p>${PROSE}</p>`),
};

let server: ReturnType<typeof Bun.serve>;
let c: SearchCrawler;
let app: ReturnType<typeof createApp>;
let jobId: string;

beforeAll(async () => {
  const pdfs: Record<string, Uint8Array> = {
    "/files/report.pdf": await fixture("report.pdf"),
    "/files/study.pdf": await fixture("two-column.pdf"),
    "/files/broken.pdf": await fixture("truncated.pdf"),
  };
  for (const name of HOSTILE) pdfs[`/hostile/${name}`] = await fixture(name);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      const pdf = pdfs[path];
      if (pdf) return new Response(pdf, { headers: { "content-type": "application/pdf" } });
      const html = HTML[path];
      if (html) return new Response(html, { headers: { "content-type": "text/html" } });
      return new Response("not found", { status: 404 });
    },
  });
  c = await searchCrawler({
    CONNECT_TO: `${HOST}:80:127.0.0.1:${server.port},${HOST}:443:127.0.0.1:1`,
    EMBEDDINGS: "false",
  });
  app = appOver(c);
  const view = await c.crawl(HOST);
  expect(view.state).toBe("completed");
  expectInvariant(view);
  jobId = view.id;
});
afterAll(async () => {
  await c.closeAsync();
  await server.stop(true);
});

const get = (path: string) => app.handle(new Request(`http://localhost${path}`));
const json = async <T>(path: string): Promise<T> => {
  const r = await get(path);
  expect(r.status).toBe(200);
  return (await r.json()) as T;
};

interface Page {
  id: string;
  url: string;
  title: string;
  description: string | null;
  markdown: string;
  facets: { type: string; format: string; published: string | null; words: number };
  cited_by: { url: string }[];
}

async function pageOf(url: string): Promise<Page> {
  const list = await json<{ data: { id: string; url: string }[] }>(
    `/api/content?domain=${HOST}&limit=100`,
  );
  const hit = list.data.find((p) => p.url === url);
  if (!hit) throw new Error(`${url} not indexed: ${list.data.map((p) => p.url).join(", ")}`);
  return json<Page>(`/api/content/${hit.id}`);
}

test("every URL lands in one bucket; the PDFs are pages, the broken one an error", () => {
  const rows = listJobUrls(c.store.read, jobId, null, 100, 0).rows;
  const bucket = (path: string) => rows.filter((r) => r.url === `http://${HOST}${path}`);
  for (const path of ["/files/report.pdf", "/files/study.pdf", "/files/broken.pdf"])
    expect(bucket(path)).toHaveLength(1);
  expect(bucket("/files/report.pdf")[0]?.bucket).toBe("indexed");
  expect(bucket("/files/study.pdf")[0]?.bucket).toBe("indexed");
  // Discovered from the report's link annotation.
  expect(bucket("/about.html")[0]?.bucket).toBe("indexed");
  const broken = bucket("/files/broken.pdf")[0];
  expect(broken?.bucket).toBe("fetchError");
  expect(broken?.reason).toStartWith("unreadable PDF: not a readable PDF");
  for (const name of HOSTILE) {
    const entries = bucket(`/hostile/${name}`);
    expect(entries.map((e) => e.bucket)).toEqual(["fetchError"]);
    expect(entries[0]?.reason ?? "").toMatch(HOSTILE_REASONS[name] as RegExp);
  }
});

test("hostile PDFs neither crash nor hang a crawl worker", async () => {
  const config = testConfig({
    CONNECT_TO: `${HOST}:80:127.0.0.1:${server.port}`,
    CONNECT_TO_ONLY: "true",
    CRAWL_DELAY_S: "0",
  });
  const pool = new CrawlPool(config, { size: 1, pacer: HostThrottle.fromConfig(config) });
  try {
    const results = await Promise.all(
      [...HOSTILE, "../files/report.pdf"].map((name) =>
        pool.run({
          url: `http://${HOST}/hostile/${name}`.replace("/hostile/../", "/"),
          etag: null,
          lastModified: null,
          sitemapLastmod: null,
        }),
      ),
    );
    const outcomes = results.map((r): string =>
      r.kind === "done" && r.outcome.kind === "booked" ? r.outcome.bucket : r.kind,
    );
    expect(outcomes).toEqual([...HOSTILE.map(() => "fetchError"), "done"]);
    const report = results.at(-1);
    expect(report?.kind === "done" && report.page?.doc.title).toBe("Quarterly Widget Report");
    expect(pool.replaced).toBe(0);
  } finally {
    await pool.close();
  }
});

test("a PDF page: markdown, metadata, facets, citation", async () => {
  const page = await pageOf(`http://${HOST}/files/report.pdf`);
  expect(page.title).toBe("Quarterly Widget Report");
  expect(page.description).toStartWith("PDF, 3 pages, by Ada Lovelace.");
  expect(page.markdown).toContain("## Sales overview");
  expect(page.markdown).toContain("| North | 12,400 | 8% |");
  expect(page.facets.format).toBe("document");
  expect(page.facets.published).toBe("2026-01-15");
  expect(page.facets.words).toBeGreaterThan(100);
  expect(page.cited_by.map((p) => p.url)).toEqual([`http://${HOST}/`]);

  const md = await get(`/api/content/${page.id}.md`);
  expect(md.status).toBe(200);
  const text = await md.text();
  expect(text).toContain("title: Quarterly Widget Report");
  expect(text).toContain("# Quarterly Widget Report");

  const bundle = await (await get(`/api/domains/${HOST}/content.md`)).text();
  expect(bundle).toContain("Regional figures");
  expect(bundle).toContain("A Study in Two Columns");
});

test("the PDF's chunks are searchable", async () => {
  await c.search.indexer.idle();
  const r = await json<{ data: { url: string; text: string }[] }>(
    "/api/search?q=sprocket+reseller+portal&mode=text",
  );
  expect(r.data[0]?.url).toBe(`http://${HOST}/files/report.pdf`);
  expect(r.data.some((h) => h.text.includes("reseller portal"))).toBe(true);
});
