/** The domain record and the markdown bundle, over a corpus written through the store's write path. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BUCKETS } from "../../src/crawl/buckets.ts";
import { expectProblem, makeApp, type TestApp } from "../helpers/app.ts";
import { ACME, type BuiltCorpus, buildCorpus, GLOBEX, INITECH, SHELF } from "../helpers/corpus.ts";
import { atxHeadings, fencedBlocks, parseBundle } from "../helpers/markdown.ts";

let api: TestApp;
let corpus: BuiltCorpus;
beforeAll(() => {
  api = makeApp();
  corpus = buildCorpus(api.store.write);
});
afterAll(() => api.close());

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are read by shape in assertions
type Json = any;

const json = (r: Response): Promise<Json> => r.json();

async function record(domain: string): Promise<Json> {
  const r = await api.get(`/api/domains/${domain}`);
  expect(r.status).toBe(200);
  return r.json();
}

describe("the domain record", () => {
  test("coverage: the latest job's buckets, indexed pages and an estimate range", async () => {
    const rec = await record(ACME);
    expect(rec.domain).toBe(ACME);
    const cov = rec.coverage;
    expect(cov.job_id).toBe(corpus.acmeJobs[1]);
    expect(cov.job_state).toBe("completed");
    const job = await json(await api.get(`/api/jobs/${corpus.acmeJobs[1]}`));
    expect(cov.known).toBe(job.coverage.total);
    expect(Object.keys(cov.buckets).sort()).toEqual([...BUCKETS, "unaccounted"].sort());
    for (const [name, bucket] of Object.entries(job.coverage.buckets)) {
      expect(cov.buckets[name]).toBe((bucket as { count: number }).count);
    }
    const listed = await json(await api.get("/api/content", { domain: ACME, limit: 1 }));
    expect(cov.indexed).toBe(listed.total);
    const est = cov.estimate;
    expect(Object.keys(est).sort()).toEqual(["confidence", "high", "low", "method", "scope"]);
    expect(Number.isInteger(est.low) && Number.isInteger(est.high)).toBe(true);
    expect(est.low).toBeLessThanOrEqual(est.high);
    expect(est.low).toBeGreaterThanOrEqual(cov.evidence.confirmed_pages);
    expect(est.confidence).toBeGreaterThan(0);
    expect(est.confidence).toBeLessThanOrEqual(1);
    expect(est.method).toContain("Wilson");
    // a subdomain names the same company
    expect((await record(`www.${ACME}`)).domain).toBe(ACME);
  });

  test("health: robots.txt of the entry origin, error rate, median response time, last job", async () => {
    const h = (await record(ACME)).health;
    expect(h.robots_txt).toEqual({ status: "ok", checked_at: "2026-11-01T10:00:01Z" });
    expect(h.entry_url).toBe("https://acme.test/");
    // 23 re-checked (304), 1 modified, 3 added, 1 gone (404)
    expect(h.fetched).toBe(28);
    expect(h.errors).toEqual({ clientError: 1, serverError: 0, fetchError: 0 });
    expect(h.error_rate).toBe(Math.round((1 / 28) * 1000) / 1000);
    // 9 ms once, 10 ms 23 times, 30 ms once, 40 ms three times: the median is 10 ms
    expect(h.median_response_s).toBe(0.01);
    expect(h.last_job).toEqual({
      id: corpus.acmeJobs[1],
      state: "completed",
      created_at: "2026-11-01T00:00:00Z",
      finished_at: "2026-11-20T10:05:00Z",
      render: { mode: "auto", rendered: 0 },
    });
    expect(h.last_job_state).toBe("completed");
  });

  test("properties per language with their sitemaps and hreflang alternates", async () => {
    const rec = await record(ACME);
    expect(rec.properties).toEqual([
      {
        locale: "en-US",
        root_url: "https://acme.test/en-us/guide/",
        pages: 22,
        sitemaps: ["https://acme.test/sitemaps/en-us.xml"],
        hreflang_alternates: [{ hreflang: "de-DE", url: "https://acme.test/de-de/" }],
      },
      {
        locale: "de-DE",
        root_url: "https://acme.test/de-de/guide/",
        pages: 6,
        sitemaps: ["https://acme.test/sitemaps/de-de.xml"],
        hreflang_alternates: [
          { hreflang: "en-US", url: "https://acme.test/en-us/guide/part-11.html" },
        ],
      },
    ]);
    expect(rec.properties.reduce((n: number, p: Json) => n + p.pages, 0)).toBe(
      rec.coverage.indexed,
    );
  });

  test("sitemaps with URL counts, status and last modified as RFC 3339", async () => {
    const rec = await record(ACME);
    expect(rec.sitemaps.map((s: Json) => [s.url, s.url_count, s.status])).toEqual([
      ["https://acme.test/sitemap.xml", 0, "ok"],
      ["https://acme.test/sitemaps/de-de.xml", 6, "ok"],
      ["https://acme.test/sitemaps/en-us.xml", 19, "ok"],
    ]);
    for (const s of rec.sitemaps) expect(s.last_modified).toBe("2026-11-01T08:00:00Z");
  });

  test("changes since the previous crawl: added, removed, modified", async () => {
    const changes = (await record(ACME)).changes;
    expect(changes.job_id).toBe(corpus.acmeJobs[1]);
    expect(changes.previous_job_id).toBe(corpus.acmeJobs[0]);
    expect(changes.added.count).toBe(3);
    expect(changes.added.pages.map((p: Json) => p.url)).toEqual([...corpus.added].sort());
    expect(changes.modified).toMatchObject({ count: 1, pages: [{ url: corpus.modified }] });
    expect(changes.removed).toMatchObject({ count: 1, pages: [{ url: corpus.removed }] });
    // a first crawl added every page it stored
    const globex = (await record(GLOBEX)).changes;
    expect(globex.previous_job_id).toBeNull();
    expect(globex.added.count).toBe(8);
    expect(globex.removed.count + globex.modified.count).toBe(0);
  });

  test("links_to: other domains with link and page counts, most linking pages first", async () => {
    const rec = await record(ACME);
    expect(rec.links_to).toEqual([
      {
        domain: "wikipedia.org",
        links: 12,
        pages: 8,
        hosts: ["de.wikipedia.org", "en.wikipedia.org"],
      },
      { domain: "github.com", links: 1, pages: 1, hosts: ["github.com"] },
    ]);
  });

  test("collections the domain sits on, with the reason", async () => {
    expect((await record(ACME)).collections).toEqual([
      { slug: SHELF, name: "Tools", reason: "makes databases" },
    ]);
  });

  test("a domain only on a shelf has a record with empty coverage", async () => {
    const rec = await record(INITECH);
    expect(rec.coverage).toEqual({
      scope: null,
      known: 0,
      indexed: 0,
      job_id: null,
      job_state: null,
      buckets: null,
      estimate: null,
      evidence: null,
    });
    expect(rec.health.last_job).toBeNull();
    expect(rec.properties).toEqual([]);
    expect(rec.changes.job_id).toBeNull();
  });

  test("unknown and invalid domains", async () => {
    await expectProblem(await api.get("/api/domains/python.org"), 404, "not_found");
    for (const bad of ["127.0.0.1", "localhost", "com", "exa_mple..org", "http:x"]) {
      const problem = await expectProblem(
        await api.get(`/api/domains/${bad}`),
        400,
        "invalid_parameter",
      );
      expect(problem.errors?.[0]?.param).toBe("root_domain");
    }
  });
});

describe("the domain bundle", () => {
  const url = `/api/domains/${ACME}/content.md`;

  test("a tree: one level-1 heading per page, most cited first, headings demoted, code kept", async () => {
    const r = await api.get(url, { limit: 6 });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const { front, pages, closing } = parseBundle(await r.text());
    const total = (await json(await api.get("/api/content", { domain: ACME }))).total;
    expect(front).toMatchObject({
      domain: ACME,
      pages_included: 6,
      pages_left_out: total - 6,
      filters: { limit: 6 },
    });
    expect(String(front.generated_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(closing).toContain(`pages_left_out: ${total - 6}`);
    const listing = (await json(await api.get("/api/content", { domain: ACME, limit: 6 }))).data;
    expect(pages.map((p) => p.title)).toEqual(listing.map((p: Json) => p.title ?? p.url));
    for (const [i, page] of pages.entries()) {
      const item = listing[i];
      expect(page.body).toContain(`Source: <${item.url}>`);
      const original = (await json(await api.get(`/api/content/${item.id}`))).markdown;
      const levels = atxHeadings(page.body).map(([level]) => level);
      expect(atxHeadings(original).map(([level]) => level)).toEqual([1, 2, 3, 6]);
      // # → ##, ## → ###, the setext "Configuration / ---" (level 2) → ###, ### → ####, ###### stays
      expect(levels).toEqual([2, 3, 3, 4, 6]);
      for (const block of fencedBlocks(original)) expect(page.body).toContain(block);
    }
  });

  test("filters: type and technicality_min, counted like the page list", async () => {
    const r = await api.get(url, { type: "docs,changelog", technicality_min: 0.3, tipe: "x" });
    const { front, pages } = parseBundle(await r.text());
    expect(front.filters).toEqual({
      limit: 100,
      type: ["docs", "changelog"],
      technicality_min: 0.3,
    });
    const expected = await json(
      await api.get("/api/content", {
        domain: ACME,
        type: "docs,changelog",
        technicality_min: 0.3,
      }),
    );
    expect(front.pages_included).toBe(expected.total);
    expect(front.pages_left_out).toBe(0);
    expect(pages.length).toBe(expected.total);
  });

  test.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 501 }, "limit"],
    [{ type: "essay" }, "type"],
    [{ technicality_min: 1.1 }, "technicality_min"],
  ])("%j is a 400 naming %s", async (params, param) => {
    const problem = await expectProblem(await api.get(url, params), 400, "invalid_parameter");
    expect(problem.errors?.[0]?.param).toBe(param);
  });

  test("unknown and invalid domains", async () => {
    await expectProblem(await api.get("/api/domains/python.org/content.md"), 404, "not_found");
    await expectProblem(
      await api.get("/api/domains/127.0.0.1/content.md"),
      400,
      "invalid_parameter",
    );
  });

  test("streamed over a real socket (chunked, not built in memory first)", async () => {
    const server = api.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const r = await fetch(`http://127.0.0.1:${server.server?.port}${url}?limit=500`);
      expect(r.status).toBe(200);
      expect(r.headers.get("transfer-encoding")).toBe("chunked");
      expect(r.headers.get("content-length")).toBeNull();
      const { front, pages } = parseBundle(await r.text());
      expect(pages.length).toBe(front.pages_included as number);
      expect(front.pages_left_out).toBe(0);
    } finally {
      await api.app.stop();
    }
  });
});
