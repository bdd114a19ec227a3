/**
 * The contract of search (the reference's test_contract.py search cases) over a real socket, on
 * the test corpus indexed into its shards with the real embedding model: the shape of each mode,
 * defaults, filters inside every engine, `q` on /api/content with relevance and other sorts.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ACME, GLOBEX, SHELF } from "../helpers/corpus.ts";
import { type Json, type LiveServer, live, PAGE_ID } from "../helpers/live.ts";

setDefaultTimeout(120_000);

let srv: LiveServer;
beforeAll(async () => {
  srv = live({ EMBEDDINGS: "true", EMBED_THREADS: "1" });
  await srv.api.attachSearch();
});
afterAll(async () => {
  await srv.close();
});

const page = (id: string): Promise<Json> => srv.json(`/api/content/${id}`, { markdown: false });

describe.each(["hybrid", "text", "vector"])("mode %s", (mode) => {
  test("shape: hits with chunk, page, url, title, domain, heading, text, score and engine ranks", async () => {
    const body: Json = await srv.json("/api/search", { q: "install the package", mode, limit: 7 });
    expect(body).toMatchObject({
      query: "install the package",
      mode,
      limit: 7,
      filters: { applied: {}, unrecognized: [] },
    });
    expect(body.data.length).toBe(7);
    const engines = mode === "hybrid" ? ["text", "vector"] : [mode];
    for (const hit of body.data) {
      expect(Object.keys(hit).sort()).toEqual([
        "chunk_id",
        "domain",
        "heading",
        "page_id",
        "ranks",
        "score",
        "text",
        "title",
        "url",
      ]);
      expect(hit.page_id).toMatch(PAGE_ID);
      expect([ACME, GLOBEX]).toContain(hit.domain);
      expect(hit.text.length).toBeGreaterThan(0);
      expect(Object.keys(hit.ranks).length).toBeGreaterThan(0);
      for (const [engine, rank] of Object.entries(hit.ranks)) {
        expect(engines).toContain(engine);
        expect(Number.isInteger(rank) && (rank as number) >= 1).toBe(true);
      }
      expect(Math.round(hit.score * 10_000) / 10_000).toBe(hit.score);
    }
    const scores = body.data.map((h: Json) => h.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    expect(new Set(body.data.map((h: Json) => h.chunk_id)).size).toBe(7);
  });

  test.each([
    [
      { domain: "Globex.TEST", q: "news" },
      { domain: [GLOBEX] },
      (_h: Json, p: Json) => p.domain === GLOBEX,
    ],
    [
      { collection: SHELF.toUpperCase() },
      { collection: SHELF },
      (_h: Json, p: Json) => p.domain === ACME,
    ],
    [
      { locale: "DE" },
      { locale: ["de"] },
      (_h: Json, p: Json) => (p.facets.locale ?? "").toLowerCase().startsWith("de"),
    ],
    [
      { type: "docs, api_reference" },
      { type: ["docs", "api_reference"] },
      (_h: Json, p: Json) => ["docs", "api_reference"].includes(p.facets.type),
    ],
    [
      { technicality_min: "0.30" },
      { technicality_min: 0.3 },
      (_h: Json, p: Json) => p.facets.technicality >= 0.3,
    ],
  ])("filter %j applies inside the engine and echoes itself", async (params, applied, check) => {
    const body: Json = await srv.json("/api/search", {
      q: "install configuration options",
      mode,
      ...params,
    });
    expect(body.filters).toEqual({ applied, unrecognized: [] });
    expect(body.data.length).toBeGreaterThan(0);
    for (const hit of body.data) expect(check(hit, await page(hit.page_id))).toBe(true);
  });
});

test("default mode hybrid, default limit 10, limit up to the setting", async () => {
  const body: Json = await srv.json("/api/search", { q: "guide" });
  expect(body.mode).toBe("hybrid");
  expect(body.limit).toBe(10);
  expect(body.data.length).toBe(10);
  expect((await srv.json("/api/search", { q: "guide", limit: 50 })).data.length).toBeGreaterThan(
    10,
  );
});

test("topics filter and an unrecognized parameter", async () => {
  const facets: Json = await srv.json("/api/facets");
  const topics = facets.data.find((f: Json) => f.facet === "topics").values;
  const topic = topics.reduce((a: Json, b: Json) => (b.pages > a.pages ? b : a)).value;
  const body: Json = await srv.json("/api/search", {
    q: "configuration",
    topics: topic,
    sort: "x",
  });
  expect(body.filters).toEqual({ applied: { topics: [topic] }, unrecognized: ["sort"] });
  for (const hit of body.data) expect((await page(hit.page_id)).facets.topics).toContain(topic);
});

test("q on /api/content ranks pages by relevance; other sorts reorder the same matches", async () => {
  const relevant: Json = await srv.json("/api/content", {
    q: "guide part install",
    sort: "relevance",
    limit: 5,
  });
  expect(relevant.sort).toBe("relevance");
  expect(relevant.total).toBeGreaterThan(0);
  expect(relevant.filters.applied.q).toBe("guide part install");
  const byWords: Json = await srv.json("/api/content", {
    q: "guide part install",
    sort: "words",
    limit: 50,
  });
  const words = byWords.data.map((p: Json) => p.facets.words);
  expect(words).toEqual([...words].sort((a: number, b: number) => b - a));
  expect(byWords.total).toBe(relevant.total);
  const none: Json = await srv.json("/api/content", { q: "zzzqqqxxx" });
  expect(none).toMatchObject({ data: [], total: 0 });
  const scoped: Json = await srv.json("/api/content", { q: "news", domain: GLOBEX });
  expect(scoped.data.every((p: Json) => p.domain === GLOBEX)).toBe(true);
  expect(scoped.total).toBeGreaterThan(0);
});

test("vector search answers a paraphrase the words do not share", async () => {
  const body: Json = await srv.json("/api/search", {
    q: "corporate announcements",
    mode: "vector",
    domain: GLOBEX,
    limit: 3,
  });
  expect(body.data.length).toBe(3);
  expect(body.data.every((h: Json) => h.domain === GLOBEX)).toBe(true);
});
