/**
 * The reference's contract suite (tests/test_contract.py), ported: the OpenAPI document,
 * methods, jobs, crawl bodies, keys, domains, bundles, shelves and MCP against CONTRACT.md, over
 * a real socket, on a corpus written through the store's write path. Jobs here were never run
 * by a crawler (it is built elsewhere): their shapes are checked, not a crawl's timing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BUCKETS } from "../../src/crawl/buckets.ts";
import { createKey } from "../../src/services/keys-service.ts";
import { ACME, GLOBEX, INITECH, SHELF } from "../helpers/corpus.ts";
import {
  expectEnvelope,
  expectTime,
  JOB_ID,
  type Json,
  type LiveServer,
  live,
  problem,
} from "../helpers/live.ts";
import { parseBundle } from "../helpers/markdown.ts";
import { INIT, MCP_HEADERS } from "../helpers/mcp.ts";

const MISSING_JOB = "job_00000000000000000000000000";
const ALL_BUCKETS = [...BUCKETS, "unaccounted"].sort();
const REST_PATHS = [
  "/api/crawl",
  "/api/jobs",
  "/api/jobs/{job_id}",
  "/api/jobs/{job_id}/urls",
  "/api/jobs/{job_id}/cancel",
  "/api/content",
  "/api/content/{page_id}",
  "/api/content/{page_id}.md",
  "/api/search",
  "/api/facets",
  "/api/domains/{root_domain}",
  "/api/domains/{root_domain}/content.md",
  "/api/collections",
  "/api/collections/{slug}",
  "/api/collections/{slug}/members",
  "/api/collections/{slug}/members/{domain}",
];

let srv: LiveServer;
let jobs: { acme: string; globex: string };
let acmePages: Json[];
beforeAll(async () => {
  srv = live();
  const c = srv.corpus;
  if (!c) throw new Error("no corpus");
  jobs = { acme: c.acmeJobs[1], globex: c.globexJob };
  acmePages = (await srv.json("/api/content", { domain: ACME, limit: 100 })).data;
});
afterAll(() => srv.close());

test("the OpenAPI document lists every path and method", async () => {
  const r = await srv.get("/api/openapi.json");
  expect(r.headers.get("content-type")).toStartWith("application/json");
  const doc = (await r.json()) as Json;
  expect(doc.openapi).toStartWith("3.");
  expect(REST_PATHS.filter((p) => !(p in doc.paths))).toEqual([]);
  expect(Object.keys(doc.paths["/api/crawl"])).toContain("post");
  expect(Object.keys(doc.paths["/api/jobs/{job_id}/cancel"])).toContain("post");
  expect(Object.keys(doc.paths["/api/collections/{slug}"])).toEqual(
    expect.arrayContaining(["get", "put"]),
  );
  expect(Object.keys(doc.paths["/api/collections/{slug}/members/{domain}"])).toContain("delete");
});

test.each([
  ["GET", "/api/crawl"],
  ["DELETE", "/api/crawl"],
  ["POST", "/api/content"],
  ["DELETE", "/api/content/{page}"],
  ["PUT", "/api/search"],
  ["POST", "/api/facets"],
  ["POST", "/api/domains/acme.test"],
  ["GET", "/api/jobs/{job}/cancel"],
  ["DELETE", "/api/jobs/{job}"],
  ["POST", "/api/collections"],
  ["DELETE", "/api/collections/tools"],
  ["GET", "/api/collections/tools/members"],
])("%s %s is a 405 naming the allowed methods", async (method, path) => {
  const r = await srv.request(
    method,
    path.replace("{page}", acmePages[0].id).replace("{job}", jobs.acme),
  );
  await problem(r, 405, "method_not_allowed");
  expect(r.headers.get("allow")).toBeTruthy();
});

test("an unknown endpoint is a 404 problem", async () => {
  await problem(await srv.get("/api/nothing-here"), 404, "not_found");
});

describe("jobs", () => {
  test("finished jobs: shape, params, times and buckets that account for every URL", async () => {
    for (const [domain, id, state] of [
      [ACME, jobs.acme, "completed"],
      [GLOBEX, jobs.globex, "completed"],
    ] as const) {
      const view = await srv.json(`/api/jobs/${id}`);
      expect(view.id).toMatch(JOB_ID);
      expect(view.domain).toBe(domain);
      expect(view.state).toBe(state);
      expect(view.params).toEqual({ budget: 10, refresh: false, force: false, shots: 0 });
      for (const t of ["created_at", "started_at", "finished_at"]) expectTime(view[t]);
      expect(view.created_at <= view.started_at && view.started_at <= view.finished_at).toBe(true);
      expect(view.error).toBeNull();
      const p = view.progress;
      for (const n of ["indexed", "pending", "discovered", "fetched"]) {
        expect(Number.isInteger(p[n]) && p[n] >= 0).toBe(true);
      }
      expect(p.elapsed_s).toBeGreaterThan(0);
      expect(p.pages_per_min).toBeGreaterThan(0);
      expect(p.eta).toEqual({ low_s: 0, high_s: 0, confidence: 1 });
      expect(p.pending).toBe(0);
      const buckets = view.coverage.buckets;
      expect(Object.keys(buckets).sort()).toEqual(ALL_BUCKETS);
      let sum = 0;
      for (const b of Object.values(buckets) as Json[]) {
        expect(Number.isInteger(b.count)).toBe(true);
        expect(b.reason.length).toBeGreaterThan(0);
        expect(b.sample.length).toBe(Math.min(10, b.count));
        sum += b.count;
      }
      expect(sum).toBe(view.coverage.total);
      expect(buckets.unaccounted.count).toBe(0);
    }
    const partial = await srv.json(`/api/jobs/${srv.corpus?.acmeJobs[0]}`);
    expect(partial.state).toBe("partial");
    const b = partial.coverage.buckets;
    expect(b.budget.count + b.stoppedEarly.count).toBeGreaterThan(0);
  });

  test("a job read accepts the bare id", async () => {
    const a = await srv.json(`/api/jobs/${jobs.acme}`);
    expect((await srv.json(`/api/jobs/${jobs.acme.slice(4)}`)).id).toBe(a.id);
    await problem(await srv.get(`/api/jobs/${MISSING_JOB}`), 404, "not_found");
  });

  test("job URLs per bucket: each URL in exactly one, budget URLs with reasons", async () => {
    const id = srv.corpus?.acmeJobs[0] ?? "";
    const view = await srv.json(`/api/jobs/${id}`);
    const seen = new Set<string>();
    for (const [name, bucket] of Object.entries(view.coverage.buckets) as [string, Json][]) {
      const body = await srv.json(`/api/jobs/${id}/urls`, { bucket: name, limit: 1000 });
      expectEnvelope(body);
      expect(body.total).toBe(bucket.count);
      expect(body.filters.applied).toEqual({ bucket: name });
      const urls = body.data.map((r: Json) => r.url);
      for (const u of urls) {
        expect(seen.has(u)).toBe(false);
        seen.add(u);
      }
      for (const s of bucket.sample) expect(urls).toContain(s);
      if (name === "budget") expect(body.data.every((r: Json) => r.reason)).toBe(true);
    }
    expect(seen.size).toBe(view.coverage.total);
    const page = await srv.json(`/api/jobs/${id}/urls`, { limit: 5, offset: 5, bukket: 1 });
    expect([page.limit, page.offset, page.data.length]).toEqual([5, 5, 5]);
    expect(page.filters).toEqual({ applied: {}, unrecognized: ["bukket"] });
    await problem(
      await srv.get(`/api/jobs/${id}/urls`, { bucket: "nope" }),
      400,
      "invalid_parameter",
      "bucket",
    );
    await problem(await srv.get(`/api/jobs/${MISSING_JOB}/urls`), 404, "not_found");
  });

  test("the job list", async () => {
    const first = await srv.json("/api/jobs", { limit: 1 });
    expectEnvelope(first);
    expect(first.total).toBeGreaterThanOrEqual(3);
    expect(first.data.length).toBe(1);
    const one = await srv.json("/api/jobs", { domain: GLOBEX, stat: "x" });
    expect(one.data.map((j: Json) => j.id)).toEqual([jobs.globex]);
    expect(one.filters).toEqual({ applied: { domain: GLOBEX }, unrecognized: ["stat"] });
    const done = await srv.json("/api/jobs", { state: "completed" });
    expect(done.data.length).toBeGreaterThan(0);
    expect(done.data.every((j: Json) => j.state === "completed")).toBe(true);
    await problem(await srv.get("/api/jobs", { state: "done" }), 400, "invalid_parameter");
    await problem(await srv.get("/api/jobs", { limit: 0 }), 400, "invalid_parameter", "limit");
  });
});

describe("crawl bodies and keys", () => {
  test.each([
    [{ domain: "python.org", bugdet: 3 }, "bugdet"],
    [{ budget: 3 }, "domain"],
    [{ domain: "https://python.org/" }, "domain"],
    [{ domain: "python.org/docs" }, "domain"],
    [{ domain: "10.0.0.1" }, "domain"],
    [{ domain: "[::1]" }, "domain"],
    [{ domain: "python.org", budget: 0 }, "budget"],
    [{ domain: "python.org", budget: 10001 }, "budget"],
    [{ domain: "python.org", budget: "ten" }, "budget"],
    [{ domain: "python.org", refresh: "yes" }, "refresh"],
    [{ domain: "python.org", force: 2 }, "force"],
    [{ domain: "python.org", shots: -1 }, "shots"],
  ])("crawl body %j is a 400 naming %s", async (body, field) => {
    const p = await problem(await srv.send("POST", "/api/crawl", body), 400, "invalid_body");
    expect(p.detail).toContain(field);
  });

  test("crawl body rules: JSON only, size, syntax, an object", async () => {
    const auth = srv.api.auth;
    const raw = (body: string, type?: string) =>
      srv.request("POST", "/api/crawl", {
        body,
        headers: { ...auth, ...(type ? { "content-type": type } : {}) },
      });
    await problem(await raw('{"domain": "python.org"}'), 415, "unsupported_media_type");
    await problem(
      await raw('{"domain": "python.org"}', "text/plain"),
      415,
      "unsupported_media_type",
    );
    const big = `{"domain": "python.org", "x": "${"a".repeat(17000)}"}`;
    await problem(await raw(big, "application/json"), 413, "payload_too_large");
    await problem(await raw("{not json", "application/json"), 400, "invalid_body");
    await problem(await raw("[1, 2]", "application/json"), 400, "invalid_body");
  });

  test("writes need a key: 401 without or with a wrong one, 403 with a read-only one", async () => {
    const reader = {
      authorization: `Bearer ${createKey(srv.api.store.write, "reader", ["read"])}`,
    };
    const bad = { authorization: "Bearer wck_not-a-key" };
    const writes: [string, string, unknown][] = [
      ["POST", "/api/crawl", { domain: "python.org" }],
      ["POST", "/api/jobs/job_x/cancel", undefined],
      ["PUT", "/api/collections/other", { name: "Other" }],
      ["POST", `/api/collections/${SHELF}/members`, { domain: "python.org" }],
      ["DELETE", `/api/collections/${SHELF}/members/${ACME}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      for (const headers of [{}, bad]) {
        const r = await srv.send(method, path, body, headers);
        await problem(r, 401, "unauthorized");
        expect(r.headers.get("www-authenticate")).toStartWith("Bearer");
      }
      await problem(await srv.send(method, path, body, reader), 403, "forbidden");
    }
    const members = (await srv.json(`/api/collections/${SHELF}`)).members;
    expect(members.map((m: Json) => m.domain).sort()).toEqual([ACME, INITECH]);
    await problem(await srv.get("/api/collections/other"), 404, "not_found");
  });
});

describe("domains", () => {
  test("the record's sections", async () => {
    for (const domain of [ACME, GLOBEX]) {
      const d = await srv.json(`/api/domains/${domain}`);
      for (const s of [
        "coverage",
        "health",
        "properties",
        "sitemaps",
        "changes",
        "links_to",
        "collections",
      ]) {
        expect(Object.keys(d)).toContain(s);
      }
      const cov = d.coverage;
      const pages = (await srv.json("/api/content", { domain, limit: 1 })).total;
      expect(cov.indexed).toBe(pages);
      expect(cov.known).toBeGreaterThanOrEqual(cov.indexed);
      expect(Object.keys(cov.buckets).sort()).toEqual(ALL_BUCKETS);
      const est = cov.estimate;
      expect(Object.keys(est).sort()).toEqual(["confidence", "high", "low", "method", "scope"]);
      expect(Number.isInteger(est.low) && Number.isInteger(est.high)).toBe(true);
      expect(0 < est.low && est.low <= est.high).toBe(true);
      expect(est.confidence >= 0 && est.confidence <= 1).toBe(true);
      expect(est.method.length).toBeGreaterThan(0);
      const h = d.health;
      for (const k of ["robots_txt", "error_rate", "median_response_s"])
        expect(Object.keys(h)).toContain(k);
      expect(h.last_job_state).toBe("completed");
      expect(h.error_rate === null || (h.error_rate >= 0 && h.error_rate <= 1)).toBe(true);
      expect(d.properties.length).toBeGreaterThan(0);
      for (const p of d.properties) expect(Number.isInteger(p.pages)).toBe(true);
      expect(d.properties.reduce((n: number, p: Json) => n + p.pages, 0)).toBeLessThanOrEqual(
        cov.indexed,
      );
      for (const sm of d.sitemaps) {
        for (const k of ["url", "url_count", "status", "last_modified"])
          expect(Object.keys(sm)).toContain(k);
      }
      for (const k of ["added", "removed", "modified"]) expect(Object.keys(d.changes)).toContain(k);
      for (const link of d.links_to) {
        expect(link.domain).not.toBe(domain);
        expect(Number.isInteger(link.links) && Number.isInteger(link.pages)).toBe(true);
      }
    }
    const acme = await srv.json(`/api/domains/${ACME}`);
    expect(acme.health.median_response_s).toBeGreaterThanOrEqual(0);
    expect(acme.collections.map((c: Json) => c.slug)).toEqual([SHELF]);
  });

  test("404 and bad names; a subdomain names its company", async () => {
    await problem(await srv.get("/api/domains/example.org"), 404, "not_found");
    await problem(await srv.get("/api/domains/example.org/content.md"), 404, "not_found");
    for (const bad of ["http:x", "10.0.0.1", "a..b"]) {
      await problem(await srv.get(`/api/domains/${bad}`), 400, "invalid_parameter");
    }
    expect((await srv.json("/api/domains/WWW.ACME.test")).domain).toBe(ACME);
  });

  test("the bundle: frontmatter, one level-1 heading per page, the closing line", async () => {
    const get = async (params: Record<string, string | number>) => {
      const r = await srv.get(`/api/domains/${ACME}/content.md`, params);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
      return parseBundle(await r.text());
    };
    const five = await get({ limit: 5 });
    expect(five.front).toMatchObject({
      domain: ACME,
      pages_included: 5,
      pages_left_out: acmePages.length - 5,
    });
    expect((five.front.filters as Json).limit).toBe(5);
    expect(five.pages.length).toBe(5);
    expect(five.closing.trim().split("\n").at(-1)).toContain(
      `pages_left_out: ${acmePages.length - 5}`,
    );
    for (const page of five.pages) {
      expect(acmePages.some((p) => page.body.includes(`<${p.url}>`))).toBe(true);
    }
    const every = await get({});
    expect((every.front.filters as Json).limit).toBe(100);
    expect(Number(every.front.pages_included) + Number(every.front.pages_left_out)).toBe(
      acmePages.length,
    );
    const docs = await get({ limit: 500, type: "docs", technicality_min: 0.2, tipe: "x" });
    const wanted = acmePages.filter(
      (p) => p.facets.type === "docs" && p.facets.technicality >= 0.2,
    );
    expect(docs.front).toMatchObject({ pages_included: wanted.length, pages_left_out: 0 });
    expect(docs.front.filters).toEqual({ limit: 500, type: ["docs"], technicality_min: 0.2 });
  });

  test.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 501 }, "limit"],
    [{ type: "essay" }, "type"],
    [{ technicality_min: 1.1 }, "technicality_min"],
  ])("bundle %j is a 400 naming %s", async (params, param) => {
    await problem(
      await srv.get(`/api/domains/${ACME}/content.md`, params),
      400,
      "invalid_parameter",
      param,
    );
  });
});

describe("shelves", () => {
  test("list and read", async () => {
    const body = await srv.json("/api/collections");
    expectEnvelope(body);
    const shelf = body.data.find((s: Json) => s.slug === SHELF);
    expect(shelf).toMatchObject({ name: "Tools", companies: 2, crawled: 1 });
    const one = await srv.json(`/api/collections/${SHELF}`);
    for (const [k, v] of Object.entries(shelf)) expect(one[k]).toEqual(v);
    const members = Object.fromEntries(one.members.map((m: Json) => [m.domain, m]));
    expect(Object.keys(members).sort()).toEqual([ACME, INITECH]);
    expect(members[ACME]).toMatchObject({
      reason: "makes databases",
      placed_by: "person",
      crawled: true,
    });
    expect(members[ACME].pages).toBeGreaterThan(0);
    expect(members[INITECH]).toMatchObject({ crawled: false, pages: 0 });
    expectTime(members[ACME].placed_at);
    await problem(await srv.get("/api/collections/no-such-shelf"), 404, "not_found");
    await problem(await srv.get("/api/collections/Bad_Slug!"), 400, "invalid_parameter");
  });

  test("writes", async () => {
    const slug = "scratch";
    let r = await srv.send("PUT", `/api/collections/${slug}`, { name: "Scratch" });
    expect(r.status).toBe(201);
    expect(((await r.json()) as Json).companies).toBe(0);
    r = await srv.send("PUT", `/api/collections/${slug}`, { name: "Scratch 2", description: "d" });
    expect(r.status).toBe(200);
    expect((await r.json()) as Json).toMatchObject({ name: "Scratch 2", description: "d" });
    r = await srv.send("POST", `/api/collections/${slug}/members`, {
      domain: "Python.org",
      reason: "agent pick",
      placed_by: "agent",
    });
    expect(r.status).toBe(201);
    const member = (await r.json()) as Json;
    expect(member).toMatchObject({ domain: "python.org", placed_by: "agent" });
    expectTime(member.placed_at);
    const listed = (await srv.json("/api/collections")).data.find((s: Json) => s.slug === slug);
    expect(listed.companies).toBe(1);
    const path = `/api/collections/${slug}/members/python.org`;
    r = await srv.send("DELETE", path, undefined);
    expect(r.status).toBe(204);
    expect(await r.text()).toBe("");
    await problem(await srv.send("DELETE", path, undefined), 404, "not_found");
    await problem(
      await srv.send("POST", "/api/collections/no-such-shelf/members", { domain: "python.org" }),
      404,
      "not_found",
    );
    for (const [body, field] of [
      [{ name: "x", colour: "red" }, "colour"],
      [{ description: "no name" }, "name"],
      [{ name: 5 }, "name"],
    ] as const) {
      const p = await problem(
        await srv.send("PUT", `/api/collections/${slug}`, body),
        400,
        "invalid_body",
      );
      expect(p.detail).toContain(field);
    }
    for (const [body, field] of [
      [{ domain: "python.org", placed_by: "robot" }, "placed_by"],
      [{ domain: "https://python.org" }, "domain"],
      [{ reason: "no domain" }, "domain"],
    ] as const) {
      const p = await problem(
        await srv.send("POST", `/api/collections/${slug}/members`, body),
        400,
        "invalid_body",
      );
      expect(p.detail).toContain(field);
    }
  });
});

test("the MCP endpoint answers a session by hand; a tool gives the HTTP API's data", async () => {
  let r = await srv.request("POST", "/api/mcp", {
    body: JSON.stringify(INIT),
    headers: MCP_HEADERS,
  });
  expect(r.status).toBe(200);
  const headers = {
    ...MCP_HEADERS,
    "mcp-session-id": r.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": ((await r.json()) as Json).result.protocolVersion,
  };
  const post = (body: unknown) =>
    srv.request("POST", "/api/mcp", { body: JSON.stringify(body), headers });
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  r = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  const names = ((await r.json()) as Json).result.tools.map((t: Json) => t.name);
  for (const t of [
    "search",
    "list_content",
    "get_page",
    "get_page_markdown",
    "get_domain",
    "get_domain_markdown",
    "list_collections",
    "get_collection",
    "get_job",
    "list_facets",
  ]) {
    expect(names).toContain(t);
  }
  r = await post({
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "list_content", arguments: { domain: [ACME], limit: 3 } },
  });
  const result = ((await r.json()) as Json).result;
  expect(result.isError).toBeUndefined();
  const http = await srv.json("/api/content", { domain: ACME, limit: 3 });
  expect(result.structuredContent.data).toEqual(http.data);
  expect(result.content[0].text).toContain(`[${http.data[0].title}](${http.data[0].url})`);
});

test("a crawl answers at once; a second conflicts; cancel ends a queued one", async () => {
  const r = await srv.send("POST", "/api/crawl", { domain: "docs.python.org", budget: 3 });
  expect(r.status).toBe(202);
  const body = (await r.json()) as Json;
  expect(Object.keys(body).sort()).toEqual(["domain", "job_id", "state"]);
  expect(body).toMatchObject({ state: "queued", domain: "python.org" });
  expect(body.job_id).toMatch(JOB_ID);
  expect(r.headers.get("location")).toBe(`/api/jobs/${body.job_id}`);
  const again = await problem(
    await srv.send("POST", "/api/crawl", { domain: "python.org" }),
    409,
    "conflict",
  );
  expect(JSON.stringify(again)).toContain(body.job_id);
  await problem(
    await srv.send("POST", `/api/jobs/${body.job_id}/cancel`, undefined, {}),
    401,
    "unauthorized",
  );
  const cancelled = await srv.send("POST", `/api/jobs/${body.job_id}/cancel`, undefined);
  expect(cancelled.status).toBe(202);
  const view = await srv.json(`/api/jobs/${body.job_id}`);
  expect(view.state).toBe("cancelled");
  expect(view.coverage.buckets.pending.count).toBe(0);
  await problem(
    await srv.send("POST", `/api/jobs/${MISSING_JOB}/cancel`, undefined),
    404,
    "not_found",
  );
});

test("crawl starts are rate limited per key (429 with Retry-After)", async () => {
  const small = live({ CRAWL_RATE_PER_MINUTE: "2" }, false);
  try {
    for (const domain of ["python.org", "postgresql.org"]) {
      expect((await small.send("POST", "/api/crawl", { domain, budget: 1 })).status).toBe(202);
    }
    const r = await small.send("POST", "/api/crawl", { domain: "debian.org", budget: 1 });
    await problem(r, 429, "rate_limited");
    const retry = Number(r.headers.get("retry-after"));
    expect(retry >= 1 && retry <= 61).toBe(true);
    const other = { authorization: `Bearer ${createKey(small.api.store.write, "other")}` };
    expect(
      (await small.send("POST", "/api/crawl", { domain: "debian.org", budget: 1 }, other)).status,
    ).toBe(202);
    const listed = await small.json("/api/jobs");
    expect(listed.total).toBe(3);
    expect(listed.data.every((j: Json) => j.state === "queued")).toBe(true);
  } finally {
    await small.close();
  }
});

test("private reads: every read needs a key", async () => {
  const closed = live({ PUBLIC_READS: "false" }, false);
  try {
    for (const path of ["/api/content", "/api/search?q=x", "/api/facets", "/api/collections"]) {
      await problem(await closed.get(path), 401, "unauthorized");
    }
    for (const path of ["/api/content", "/api/facets", "/api/collections"]) {
      expect((await closed.get(path, {}, closed.api.auth)).status).toBe(200);
    }
    await problem(
      await closed.get("/api/domains/python.org", {}, closed.api.auth),
      404,
      "not_found",
    );
  } finally {
    await closed.close();
  }
});
