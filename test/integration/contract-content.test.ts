/**
 * The reference's contract suite (tests/test_contract.py), ported: pages, facets and search
 * parameters against CONTRACT.md, over a real socket, on a corpus written through the store's
 * write path (two companies, one on a shelf). The cases that need full-text search (q,
 * sort=relevance, search results) wait for the search engine; see docs/architecture.md.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AUDIENCE_VALUES, FORMAT_VALUES, TYPE_VALUES } from "../../src/facets/vocabulary.ts";
import { ACME, GLOBEX, SHELF } from "../helpers/corpus.ts";
import {
  DATE,
  expectEnvelope,
  expectScore,
  expectTime,
  JOB_ID,
  type Json,
  type LiveServer,
  live,
  PAGE_ID,
  problem,
} from "../helpers/live.ts";

const SORTS = [
  "cited",
  "published",
  "words",
  "technicality",
  "depth",
  "originality",
  "promotional",
  "indexed",
] as const;
const MISSING_PAGE = "pg_0123456789abcdef";

let srv: LiveServer;
let all: Json[];
beforeAll(async () => {
  srv = live();
  all = [];
  for (;;) {
    const body = await srv.json("/api/content", { limit: 100, offset: all.length });
    all.push(...body.data);
    if (all.length >= body.total) break;
  }
});
afterAll(() => srv.close());

async function list(params: Record<string, string | number | boolean> = {}): Promise<Json> {
  const body = await srv.json("/api/content", params);
  expectEnvelope(body, true);
  return body;
}

function expectFacets(f: Json): void {
  const keys = ["type", "format", "audience", "locale", "topics", "technicality", "depth"];
  keys.push("originality", "promotional", "has_code", "words", "published");
  for (const key of keys) expect(Object.keys(f)).toContain(key);
  expect(TYPE_VALUES as string[]).toContain(f.type);
  expect(FORMAT_VALUES as string[]).toContain(f.format);
  expect(AUDIENCE_VALUES as string[]).toContain(f.audience);
  if (f.locale !== null) expect(f.locale).toMatch(/^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$/);
  expect(f.topics.length).toBeLessThanOrEqual(5);
  for (const name of ["technicality", "depth", "originality", "promotional"]) expectScore(f[name]);
  expect(typeof f.has_code).toBe("boolean");
  expect(Number.isInteger(f.words) && f.words >= 0).toBe(true);
  if (f.published !== null) expect(f.published).toMatch(DATE);
}

describe("the page list", () => {
  test("envelope and items", async () => {
    const body = await list();
    expect(body.sort).toBe("cited");
    expect(body.limit).toBe(20);
    expect(body.offset).toBe(0);
    expect(body.filters).toEqual({ applied: {}, unrecognized: [] });
    expect(body.total).toBe(all.length);
    expect(all.length).toBe(36);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    for (const item of all) {
      expect(item.id).toMatch(PAGE_ID);
      expect(item.url).toStartWith("http");
      expect(typeof item.title).toBe("string");
      expect([ACME, GLOBEX]).toContain(item.domain);
      expectFacets(item.facets);
      expect(Number.isInteger(item.metrics.inlinks_body)).toBe(true);
    }
    expect(new Set(all.map((p) => p.domain))).toEqual(new Set([ACME, GLOBEX]));
  });

  test("unrecognized parameters are reported, not applied", async () => {
    const base = await list({ limit: 5 });
    const body = await list({ limit: 5, tecnicality_min: 0.99, Domain: "x" });
    expect(body.filters).toEqual({ applied: {}, unrecognized: ["Domain", "tecnicality_min"] });
    expect(body.total).toBe(base.total);
    expect(body.data).toEqual(base.data);
  });

  const cases: [Record<string, string>, Record<string, unknown>, (p: Json) => boolean][] = [
    [{ domain: " ACME.test " }, { domain: [ACME] }, (p) => p.domain === ACME],
    [{ domain: `${ACME},${GLOBEX.toUpperCase()}` }, { domain: [ACME, GLOBEX] }, () => true],
    [{ collection: " Tools " }, { collection: SHELF }, (p) => p.domain === ACME],
    [
      { type: "Docs, API_reference" },
      { type: ["docs", "api_reference"] },
      (p) => ["docs", "api_reference"].includes(p.facets.type),
    ],
    [
      { format: "reference,article" },
      { format: ["reference", "article"] },
      (p) => ["reference", "article"].includes(p.facets.format),
    ],
    [
      { audience: "developers,technical" },
      { audience: ["developers", "technical"] },
      (p) => ["developers", "technical"].includes(p.facets.audience),
    ],
    [{ locale: "en" }, { locale: ["en"] }, (p) => (p.facets.locale ?? "").split("-")[0] === "en"],
    [{ technicality_min: "0.50" }, { technicality_min: 0.5 }, (p) => p.facets.technicality >= 0.5],
    [{ depth_min: ".2" }, { depth_min: 0.2 }, (p) => p.facets.depth >= 0.2],
    [{ originality_min: "0" }, { originality_min: 0 }, () => true],
    [{ promotional_max: "1" }, { promotional_max: 1 }, () => true],
    [{ has_code: "true" }, { has_code: true }, (p) => p.facets.has_code === true],
    [{ has_code: "false" }, { has_code: false }, (p) => p.facets.has_code === false],
    [{ words_min: "0300" }, { words_min: 300 }, (p) => p.facets.words >= 300],
    [
      { published_after: "2026-03-01" },
      { published_after: "2026-03-01" },
      (p) => (p.facets.published ?? "") > "2026-03-01",
    ],
  ];
  test.each(cases)("%j is applied normalized and honoured", async (params, applied, keep) => {
    const body = await list({ limit: 100, ...params });
    expect(body.filters).toEqual({ applied, unrecognized: [] });
    expect(body.data.every(keep)).toBe(true);
    expect(body.total).toBe(all.filter(keep).length);
  });

  test("topics: any of, as facet counts report them", async () => {
    const facets = (await srv.json("/api/facets")).data;
    const topics = facets.find((f: Json) => f.facet === "topics").values;
    const used = topics.filter((v: Json) => v.pages).sort((a: Json, b: Json) => b.pages - a.pages);
    const names = used.slice(0, 2).map((v: Json) => v.value);
    expect(names.length).toBe(2);
    const body = await list({ topics: names.join(",").toUpperCase(), limit: 100 });
    expect(body.filters.applied).toEqual({ topics: names });
    const expected = all.filter((p) => p.facets.topics.some((t: string) => names.includes(t)));
    expect(body.total).toBe(expected.length);
  });

  test("a language matches its regions", async () => {
    const langs = new Set(all.map((p) => (p.facets.locale ?? "").split("-")[0]).filter(Boolean));
    expect(langs).toEqual(new Set(["en", "de"]));
    for (const lang of langs) {
      const body = await list({ locale: lang, limit: 1 });
      expect(body.total).toBe(
        all.filter((p) => (p.facets.locale ?? "").split("-")[0] === lang).length,
      );
    }
  });

  test("collection: the pages of the companies on the shelf", async () => {
    expect((await list({ collection: SHELF, limit: 1 })).total).toBe(
      all.filter((p) => p.domain === ACME).length,
    );
    // A shelf that does not exist is a 404 naming the shelves there are, not an empty list.
    const missing = await problem(
      await srv.get("/api/content", { collection: "no-such-shelf" }),
      404,
      "not_found",
    );
    expect(missing.detail).toContain("collection no-such-shelf not found");
    expect(missing.detail).toContain(SHELF);
    expect(missing.errors).toEqual([
      { param: "collection", message: expect.stringContaining(SHELF) },
    ]);
  });

  const key = (sort: (typeof SORTS)[number], p: Json): string | number => {
    const f = p.facets;
    return {
      cited: p.metrics.inlinks_body,
      published: f.published ?? "",
      words: f.words,
      technicality: f.technicality,
      depth: f.depth,
      originality: f.originality,
      promotional: -f.promotional,
      indexed: p.indexed_at ?? "",
    }[sort];
  };

  test.each(SORTS)("sort=%s: highest first, ties on id, stable paging", async (sort) => {
    const rows: Json[] = [];
    for (;;) {
      const body = await list({ sort, limit: 100, offset: rows.length });
      expect(body.sort).toBe(sort);
      rows.push(...body.data);
      if (rows.length >= body.total) break;
    }
    expect(rows.map((p) => p.id).sort()).toEqual(all.map((p) => p.id).sort());
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [key(sort, rows[i - 1]), key(sort, rows[i])];
      expect(a >= b).toBe(true);
      if (a === b) expect(rows[i - 1].id < rows[i].id).toBe(true);
    }
    const one = (await list({ sort, limit: 14, offset: 3 })).data;
    const two = [
      ...(await list({ sort, limit: 7, offset: 3 })).data,
      ...(await list({ sort, limit: 7, offset: 10 })).data,
    ];
    expect(one.map((p: Json) => p.id)).toEqual(two.map((p: Json) => p.id));
  });

  test.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 101 }, "limit"],
    [{ limit: "ten" }, "limit"],
    [{ offset: -1 }, "offset"],
    [{ offset: 10001 }, "offset"],
    [{ technicality_min: 1.5 }, "technicality_min"],
    [{ depth_min: -0.1 }, "depth_min"],
    [{ originality_min: "high" }, "originality_min"],
    [{ promotional_max: 2 }, "promotional_max"],
    [{ has_code: "maybe" }, "has_code"],
    [{ words_min: -1 }, "words_min"],
    [{ words_min: 1.5 }, "words_min"],
    [{ published_after: "last week" }, "published_after"],
    [{ sort: "newest" }, "sort"],
    [{ sort: "relevance" }, "sort"],
    [{ type: "docs,bogus" }, "type"],
    [{ format: "essay" }, "format"],
    [{ audience: "robots" }, "audience"],
    [{ topics: "not-a-topic" }, "topics"],
    [{ locale: "english!" }, "locale"],
    [{ domain: "https://acme.test/" }, "domain"],
    [{ q: "x".repeat(1001) }, "q"],
    [{ q: "   " }, "q"],
  ] as [Record<string, string | number>, string][])(
    "%j is a 400 naming the parameter",
    async (params, param) => {
      await problem(await srv.get("/api/content", params), 400, "invalid_parameter", param);
    },
  );

  test("limit and offset bounds", async () => {
    expect((await list({ limit: 100 })).data.length).toBe(all.length);
    expect((await list({ limit: 1 })).limit).toBe(1);
    const far = await list({ offset: 10000 });
    expect(far.data).toEqual([]);
    expect(far.offset).toBe(10000);
    expect(far.total).toBe(all.length);
  });
});

describe("one page", () => {
  test("shape and values", async () => {
    const cited = all.reduce((a, b) => (b.metrics.inlinks_body > a.metrics.inlinks_body ? b : a));
    expect(cited.metrics.inlinks_body).toBeGreaterThan(0);
    const r = await srv.get(`/api/content/${cited.id}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("application/json");
    const page = (await r.json()) as Json;
    for (const k of [
      "id",
      "url",
      "canonical_url",
      "title",
      "domain",
      "collections",
      "facets",
      "metrics",
      "markdown",
      "assets",
      "screenshots",
      "history",
      "cited_by",
    ]) {
      expect(Object.keys(page)).toContain(k);
    }
    expect(page.id).toBe(cited.id);
    expect(page.url).toBe(cited.url);
    expect(page.canonical_url).toStartWith("http");
    expect(page.collections).toEqual([SHELF]);
    expect(page.facets).toEqual(cited.facets);
    expect(page.markdown.trim().length).toBeGreaterThan(0);
    expect(page.metrics.inlinks_body).toBe(page.cited_by.length);
    for (const c of page.cited_by) {
      expect(c.id).toMatch(PAGE_ID);
      expect(c.id).not.toBe(page.id);
      expect(Object.keys(c).sort()).toEqual(["anchor_text", "id", "title", "url"]);
    }
    expect(new Set(page.cited_by.map((c: Json) => c.id)).size).toBe(page.cited_by.length);
    expect(page.history.length).toBeGreaterThan(0);
    for (const h of page.history) {
      expectTime(h.fetched_at);
      expect([200, 304]).toContain(h.status);
      expect(typeof h.changed).toBe("boolean");
      expect(h.content_hash.length).toBeGreaterThan(0);
      expect(h.job_id).toMatch(JOB_ID);
    }
    expect(Array.isArray(page.screenshots)).toBe(true);
  });

  test("assets carry alt text", async () => {
    let found = 0;
    for (const p of all) {
      const page = await srv.json(`/api/content/${p.id}`, { markdown: false });
      for (const a of page.assets) {
        expect(Object.keys(a).sort()).toEqual(["alt", "kind", "url"]);
        expect(a.url).toStartWith("http");
        expect(typeof a.alt).toBe("string");
        found += 1;
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  test("ids with or without prefix, markdown=false, 404s", async () => {
    const pid = all[0].id;
    const full = await srv.json(`/api/content/${pid}`);
    for (const variant of [pid.slice(3), pid.toUpperCase().replace("PG_", "pg_")]) {
      expect((await srv.json(`/api/content/${variant}`)).id).toBe(pid);
    }
    const lean = await srv.json(`/api/content/${pid}`, { markdown: false });
    const { markdown: _, ...rest } = full;
    expect(lean).toEqual(rest);
    await problem(await srv.get(`/api/content/${MISSING_PAGE}`), 404, "not_found");
    await problem(await srv.get(`/api/content/${MISSING_PAGE}.md`), 404, "not_found");
    await problem(
      await srv.get(`/api/content/${pid}`, { markdown: "perhaps" }),
      400,
      "invalid_parameter",
      "markdown",
    );
  });

  test("the page as markdown with its frontmatter", async () => {
    const pid = all[1].id;
    const page = await srv.json(`/api/content/${pid}`);
    const r = await srv.get(`/api/content/${pid}.md`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await r.text();
    expect(text).toStartWith("---\n");
    const end = text.indexOf("\n---\n", 4);
    const front = Bun.YAML.parse(text.slice(4, end)) as Json;
    const keys = [
      "id",
      "url",
      "canonical_url",
      "title",
      "domain",
      "locale",
      "type",
      "published",
      "fetched_at",
      "words",
    ];
    for (const k of keys) expect(Object.keys(front)).toContain(k);
    expect(front).toMatchObject({
      id: pid,
      url: page.url,
      canonical_url: page.canonical_url,
      title: page.title,
      domain: page.domain,
      words: page.facets.words,
      locale: page.facets.locale,
      type: page.facets.type,
    });
    expectTime(front.fetched_at);
    expect(text.slice(end + 5).trim()).toBe(page.markdown.trim());
    expect(await (await srv.get(`/api/content/${pid.slice(3)}.md`)).text()).toBe(text);
  });
});

describe("search parameters", () => {
  test.each([
    [{}, "q"],
    [{ q: "" }, "q"],
    [{ q: "y".repeat(1001) }, "q"],
    [{ q: "a", mode: "semantic" }, "mode"],
    [{ q: "a", limit: 0 }, "limit"],
    [{ q: "a", limit: 51 }, "limit"],
    [{ q: "a", technicality_min: 3 }, "technicality_min"],
    [{ q: "a", type: "essay" }, "type"],
    [{ q: "a", topics: "nope" }, "topics"],
    [{ q: "a", locale: "!!" }, "locale"],
    [{ q: "a", domain: "http://x.org" }, "domain"],
  ] as [Record<string, string | number>, string][])(
    "%j is a 400 naming it",
    async (params, param) => {
      await problem(await srv.get("/api/search", params), 400, "invalid_parameter", param);
    },
  );
});

test("facets: every vocabulary with page counts per value", async () => {
  const body = await srv.json("/api/facets");
  expectEnvelope(body);
  const by = Object.fromEntries(body.data.map((f: Json) => [f.facet, f]));
  for (const name of ["type", "format", "audience", "topics", "locale", "has_code"]) {
    expect(Object.keys(by)).toContain(name);
  }
  for (const [name, vocab] of [
    ["type", TYPE_VALUES],
    ["format", FORMAT_VALUES],
    ["audience", AUDIENCE_VALUES],
  ] as const) {
    const values = Object.fromEntries(by[name].values.map((v: Json) => [v.value, v.pages]));
    expect(Object.keys(values).sort()).toEqual([...vocab].sort());
    for (const [value, n] of Object.entries(values)) {
      expect(n).toBe(all.filter((p) => p.facets[name] === value).length);
    }
  }
  const topics = Object.fromEntries(by.topics.values.map((v: Json) => [v.value, v.pages]));
  for (const [value, n] of Object.entries(topics)) {
    expect(n).toBe(all.filter((p) => p.facets.topics.includes(value)).length);
  }
  const code = Object.fromEntries(by.has_code.values.map((v: Json) => [String(v.value), v.pages]));
  expect(code.true).toBe(all.filter((p) => p.facets.has_code).length);
  expect(code.true + code.false).toBe(all.length);
  const scoped = await srv.json("/api/facets", { domain: "ACME.test", q: "x" });
  expect(scoped.filters).toEqual({ applied: { domain: [ACME] }, unrecognized: ["q"] });
  const types = scoped.data[0].values.reduce((n: number, v: Json) => n + v.pages, 0);
  expect(types).toBe(all.filter((p) => p.domain === ACME).length);
  expect((await srv.json("/api/facets", { collection: SHELF })).filters.applied).toEqual({
    collection: SHELF,
  });
  await problem(await srv.get("/api/facets", { domain: "//" }), 400, "invalid_parameter");
});
