/**
 * Real PDFs crawled on loopback: the R manuals of Debian's r-doc-pdf (fetched and cached like the
 * doc sites, under WEBCORPUS_TEST_CACHE), linked from one HTML page. Each becomes a page with its
 * title, headings, code, date and page count; the 2,415-page reference manual is cut at the
 * page cap; every URL is in one bucket; the manuals are searchable and cited by the index.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { listJobUrls } from "../../src/db/jobs-repo.ts";
import { DEFAULT_PDF_CAPS } from "../../src/extract/pdf/pdf-source.ts";
import type { createApp } from "../../src/server/app.ts";
import { appOver, expectInvariant, type SearchCrawler, searchCrawler } from "../helpers/crawl.ts";
import { article } from "../helpers/site.ts";
import { ensureDebianPackages, R_MANUALS } from "./support/debian-docs.ts";

setDefaultTimeout(600_000);

const HOST = "r-manuals.example";
const MANUALS = [
  "R-intro.pdf",
  "R-FAQ.pdf",
  "R-data.pdf",
  "R-admin.pdf",
  "R-lang.pdf",
  "refman.pdf",
];

let server: ReturnType<typeof Bun.serve>;
let c: SearchCrawler;
let app: ReturnType<typeof createApp>;
let jobId: string;

beforeAll(async () => {
  const dir = join(ensureDebianPackages([R_MANUALS]), R_MANUALS.html);
  const index = article(
    "R manuals",
    `<p>The manuals of R, the language and environment for statistical computing, as PDF documents.</p><ul>${MANUALS.map((m) => `<li><a href="/manual/${m}">${m}</a></li>`).join("")}</ul>`,
  );
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // A crawl worker busy reading a long manual may leave a kept-alive connection idle a while.
    idleTimeout: 120,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/") return new Response(index, { headers: { "content-type": "text/html" } });
      const name = path.replace(/^\/manual\//, "");
      if (!MANUALS.includes(name)) return new Response("not found", { status: 404 });
      return new Response(Bun.file(join(dir, name)), {
        headers: { "content-type": "application/pdf" },
      });
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
  await c?.closeAsync();
  await server?.stop(true);
});

const get = async <T>(path: string): Promise<T> => {
  const r = await app.handle(new Request(`http://localhost${path}`));
  expect(r.status).toBe(200);
  return (await r.json()) as T;
};

interface Page {
  title: string;
  description: string;
  markdown: string;
  facets: { format: string; published: string | null; words: number; has_code: boolean };
  cited_by: { url: string }[];
}

async function manual(name: string): Promise<Page> {
  const list = await get<{ data: { id: string; url: string }[] }>(
    `/api/content?domain=${HOST}&limit=100`,
  );
  const hit = list.data.find((p) => p.url === `http://${HOST}/manual/${name}`);
  if (!hit) throw new Error(`${name} not indexed`);
  return get<Page>(`/api/content/${hit.id}`);
}

test("every manual is a page, in exactly one bucket", () => {
  const rows = listJobUrls(c.store.read, jobId, null, 100, 0).rows;
  for (const name of MANUALS) {
    const entries = rows.filter((r) => r.url === `http://${HOST}/manual/${name}`);
    expect(entries.map((e) => `${name}: ${e.bucket} ${e.reason ?? ""}`.trim())).toEqual([
      `${name}: indexed`,
    ]);
  }
});

test("An Introduction to R: title, headings, code, date, citation", async () => {
  const page = await manual("R-intro.pdf");
  expect(page.title).toBe("An Introduction to R");
  expect(page.description).toBe("PDF, 113 pages.");
  expect(page.facets.format).toBe("document");
  expect(page.facets.published).toBe("2023-01-20");
  expect(page.facets.words).toBeGreaterThan(30_000);
  expect(page.facets.has_code).toBe(true);
  const headings = page.markdown.split("\n").filter((l) => /^#{1,4} /.test(l));
  expect(headings.length).toBeGreaterThan(50);
  expect(headings.some((h) => /Simple manipulations; numbers and vectors/.test(h))).toBe(true);
  expect(page.markdown).toContain("```");
  expect(page.cited_by.map((p) => p.url)).toEqual([`http://${HOST}/`]);
});

test("the 2,415-page reference manual is read to the page cap", async () => {
  const page = await manual("refman.pdf");
  expect(page.title).toBe("R: A Language and Environment for Statistical Computing");
  expect(page.description).toBe("PDF, 2415 pages.");
  expect(page.facets.words).toBeGreaterThan(DEFAULT_PDF_CAPS.maxPages * 100);
});

test("the manuals are searchable", async () => {
  await c.search.indexer.idle();
  const r = await get<{ data: { url: string }[] }>(
    "/api/search?q=frequently+asked+questions+on+R&mode=text&limit=5",
  );
  expect(r.data.map((h) => h.url)).toContain(`http://${HOST}/manual/R-FAQ.pdf`);
});
