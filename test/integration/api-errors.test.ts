/** Bad input on every endpoint gets a 4xx problem document, never a 500 or a stack trace. */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createKey } from "../../src/services/keys-service.ts";
import { expectProblem, makeApp, type TestApp } from "../helpers/app.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

let api: TestApp;
beforeAll(() => {
  api = makeApp({ ALLOW_PRIVATE_SUFFIXES: "false" });
});
afterAll(() => api.close());

test("every response carries the version header, errors included", async () => {
  for (const path of [
    "/api/openapi.json",
    "/api/content",
    "/api/nothing-here",
    "/api/jobs/job_x",
  ]) {
    const r = await api.request("GET", path);
    expect(r.headers.get("x-webcorpus-version")).toMatch(/^\d+\.\d+\.\d+/);
  }
});

describe("writes need a key", () => {
  test.each([
    ["no header", {}],
    ["unknown key", { Authorization: "Bearer wck_nope" }],
    ["another scheme", { Authorization: "Basic abc" }],
    ["empty bearer", { Authorization: "Bearer " }],
  ])("crawl with %s is a 401", async (_name, headers) => {
    const r = await api.postJson("/api/crawl", { domain: "python.org" }, headers);
    await expectProblem(r, 401, "unauthorized");
    expect(r.headers.get("www-authenticate")).toBe("Bearer");
  });

  test("a read-only key is forbidden to write", async () => {
    const readOnly = createKey(api.store.write, "reader", ["read"]);
    const r = await api.postJson(
      "/api/crawl",
      { domain: "python.org" },
      { Authorization: `Bearer ${readOnly}` },
    );
    await expectProblem(r, 403, "forbidden");
  });

  test("cancel and shelf writes need a key", async () => {
    await expectProblem(await api.request("POST", "/api/jobs/job_x/cancel"), 401, "unauthorized");
    const put = await api.request("PUT", "/api/collections/tools", {
      body: JSON.stringify({ name: "Tools" }),
      headers: { "content-type": "application/json" },
    });
    await expectProblem(put, 401, "unauthorized");
    await expectProblem(
      await api.request("DELETE", "/api/collections/tools/members/python.org"),
      401,
      "unauthorized",
    );
  });
});

test("a crawl body that is not JSON is a 415", async () => {
  for (const type of ["application/x-www-form-urlencoded", "text/plain", ""]) {
    const r = await api.request("POST", "/api/crawl", {
      body: "domain=python.org",
      headers: { ...api.auth, ...(type ? { "content-type": type } : {}) },
    });
    await expectProblem(r, 415, "unsupported_media_type");
  }
});

test.each([
  [{ domain: "localhost" }, "domain"],
  [{ domain: "10.0.0.1" }, "domain"],
  [{ domain: "http://x.com/path" }, "domain"],
  [{ domain: "[::1]" }, "domain"],
  [{ domain: "2130706433" }, "domain"],
  [{ domain: "printer.local" }, "domain"],
  [{ domain: "co.uk" }, "domain"],
  [{ domain: "" }, "domain"],
  [{ domain: 42 }, "domain"],
  [{}, "domain"],
  [{ domain: "python.org", budget: 0 }, "budget"],
  [{ domain: "python.org", budget: 10001 }, "budget"],
  [{ domain: "python.org", budget: "ten" }, "budget"],
  [{ domain: "python.org", budget: 1.5 }, "budget"],
  [{ domain: "python.org", budget: "5" }, "budget"],
  [{ domain: "python.org", shots: "5" }, "shots"],
  [{ domain: "python.org", refresh: "yes" }, "refresh"],
  [{ domain: "python.org", force: 1 }, "force"],
  [{ domain: "python.org", shots: -1 }, "shots"],
  [{ domain: "python.org", depth: 3 }, "depth"],
])("crawl body %j is a 400 naming %s", async (body, field) => {
  const problem = await expectProblem(await api.postJson("/api/crawl", body), 400, "invalid_body");
  expect(problem.detail).toContain(field);
  expect(problem.errors?.[0]?.field).toBe(field);
});

test("a body that is not JSON, or not an object, is a 400", async () => {
  const headers = { ...api.auth, "content-type": "application/json" };
  for (const body of ["{nope", "[1,2]", '"python.org"', "null", ""]) {
    await expectProblem(
      await api.request("POST", "/api/crawl", { body, headers }),
      400,
      "invalid_body",
    );
  }
});

test("JSON nested deeper than any body needs is a 400, not a crash", async () => {
  const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
  const headers = { ...api.auth, "content-type": "application/json" };
  await expectProblem(
    await api.request("POST", "/api/crawl", { body: deep, headers }),
    400,
    "invalid_body",
  );
  await expectProblem(
    await api.request("PUT", "/api/collections/shelf", { body: deep, headers }),
    400,
    "invalid_body",
  );
});

test("a body past the limit is a 413, with or without Content-Length", async () => {
  const big = JSON.stringify({ domain: "python.org", x: "a".repeat(20_000) });
  const headers = { ...api.auth, "content-type": "application/json" };
  await expectProblem(
    await api.request("POST", "/api/crawl", { body: big, headers }),
    413,
    "payload_too_large",
  );
  const stream = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode("a".repeat(1000)));
      controller.close();
    },
  });
  const chunked = await api.request("POST", "/api/crawl", { body: stream, headers });
  await expectProblem(chunked, 413, "payload_too_large");
});

test("a crawl is accepted at once, a second of the same domain conflicts, cancel ends it", async () => {
  const r = await api.postJson("/api/crawl", { domain: "Example.COM", budget: 5 });
  expect(r.status).toBe(202);
  const body = (await r.json()) as { job_id: string; state: string; domain: string };
  expect(body.job_id).toMatch(/^job_[0-9a-f]{20}$/);
  expect(body.state).toBe("queued");
  expect(body.domain).toBe("example.com");
  expect(r.headers.get("location")).toBe(`/api/jobs/${body.job_id}`);
  const again = await expectProblem(
    await api.postJson("/api/crawl", { domain: "example.com" }),
    409,
    "conflict",
  );
  expect(again.detail).toContain(body.job_id);
  expect(again.job_id).toBe(body.job_id);
  const view = (await (await api.get(`/api/jobs/${body.job_id}`)).json()) as Record<
    string,
    unknown
  >;
  expect(view).toMatchObject({
    state: "queued",
    params: { budget: 5, refresh: false, force: false, shots: 0 },
  });
  const cancel = await api.request("POST", `/api/jobs/${body.job_id}/cancel`, {
    headers: api.auth,
  });
  expect(cancel.status).toBe(202);
  expect(((await cancel.json()) as { state: string }).state).toBe("cancelled");
  await expectProblem(
    await api.request("POST", `/api/jobs/${body.job_id}/cancel`, { headers: api.auth }),
    409,
    "conflict",
  );
});

test("a subdomain is crawled from its registrable domain", async () => {
  const r = await api.postJson("/api/crawl", { domain: "docs.python.org", budget: 3 });
  expect(r.status).toBe(202);
  expect(((await r.json()) as { domain: string }).domain).toBe("python.org");
});

test("unknown ids and paths are 404s", async () => {
  await expectProblem(await api.get("/api/jobs/job_doesnotexist"), 404, "not_found");
  await expectProblem(await api.get("/api/jobs/job_doesnotexist/urls"), 404, "not_found");
  await expectProblem(
    await api.request("POST", "/api/jobs/job_x/cancel", { headers: api.auth }),
    404,
    "not_found",
  );
  await expectProblem(await api.get("/api/content/pg_0123456789abcdef"), 404, "not_found");
  await expectProblem(await api.get("/api/content/pg_0123456789abcdef.md"), 404, "not_found");
  await expectProblem(await api.get("/api/content/0123456789abcdef"), 404, "not_found");
  await expectProblem(
    await api.get("/api/content/pg_0123456789abcdef/screenshot.png"),
    404,
    "not_found",
  );
  await expectProblem(await api.get("/api/collections/no-such-shelf"), 404, "not_found");
  const nothing = await expectProblem(await api.get("/api/nothing-here"), 404, "not_found");
  expect(nothing.detail).toContain("/api/nothing-here");
});

test("a known path asked with another method is a 405 naming what it takes", async () => {
  const r = await api.request("DELETE", "/api/content");
  await expectProblem(r, 405, "method_not_allowed");
  expect(r.headers.get("allow")).toBe("GET, HEAD");
  const crawl = await api.request("GET", "/api/crawl");
  await expectProblem(crawl, 405, "method_not_allowed");
  expect(crawl.headers.get("allow")).toContain("POST");
  const shelf = await api.request("POST", "/api/collections/tools");
  expect(shelf.headers.get("allow")).toBe("GET, HEAD, PUT");
});

describe("content list parameters", () => {
  test.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 101 }, "limit"],
    [{ limit: "abc" }, "limit"],
    [{ limit: 1e22 }, "limit"],
    [{ offset: -1 }, "offset"],
    [{ offset: 10001 }, "offset"],
    [{ sort: "random" }, "sort"],
    [{ technicality_min: 2 }, "technicality_min"],
    [{ technicality_min: "high" }, "technicality_min"],
    [{ promotional_max: -0.1 }, "promotional_max"],
    [{ has_code: "maybe" }, "has_code"],
    [{ words_min: -5 }, "words_min"],
    [{ words_min: "9223372036854775808" }, "words_min"],
    [{ words_min: "1000000000000000000000000000000" }, "words_min"],
    [{ published_after: "yesterday" }, "published_after"],
    [{ published_after: "2026-02-30" }, "published_after"],
    [{ published_after: "2026-03-02T09:00:00" }, "published_after"],
    [{ published_after: "0001-01-01T00:00:00Z" }, "published_after"],
    [{ published_after: "0001-01-01T00:30:00+01:00" }, "published_after"],
    [{ type: "blogpost" }, "type"],
    [{ type: "," }, "type"],
    [{ locale: "english!" }, "locale"],
    [{ domain: "localhost" }, "domain"],
    [{ q: "x".repeat(1001) }, "q"],
    [{ q: "   " }, "q"],
    [{ sort: "relevance" }, "sort"],
    [{ collection: "" }, "collection"],
    [{ collection: "Bad Slug!" }, "collection"],
  ])("%j is a 400 naming %s", async (params, param) => {
    const problem = await expectProblem(
      await api.get("/api/content", params),
      400,
      "invalid_parameter",
    );
    expect(problem.detail).toStartWith(`${param}:`);
    expect(problem.errors?.[0]?.param).toBe(param);
  });

  // Number() reads all of these as integers; a query integer is decimal digits only.
  test.each([
    ["limit", "0x10"],
    ["limit", "1e2"],
    ["limit", " 1"],
    ["limit", "1 "],
    ["limit", "+5"],
    ["limit", "1.0"],
    ["limit", ""],
    ["limit", "\uff15"],
    ["offset", "0x1"],
    ["offset", "0b1"],
    ["words_min", "1e3"],
  ])("%s=%j is a 400 naming it", async (param, value) => {
    const problem = await expectProblem(
      await api.get("/api/content", { [param]: value }),
      400,
      "invalid_parameter",
    );
    expect(problem.detail).toStartWith(`${param}: must be an integer`);
    expect(problem.errors?.[0]?.param).toBe(param);
  });

  test("decimal integers, leading zeros included, are read as before", async () => {
    const r = await api.get("/api/content", { limit: "010", offset: "0", words_min: "5" });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ limit: 10, offset: 0 });
    const jobs = await api.get("/api/jobs", { limit: "0x10" });
    await expectProblem(jobs, 400, "invalid_parameter");
  });

  test("the envelope reports the filters applied and the names it did not recognize", async () => {
    const r = await api.get("/api/content", {
      domain: "docs.python.org",
      tecnicality_min: 0.5,
      technicality_min: 0.25,
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toEqual({
      data: [],
      total: 0,
      limit: 20,
      offset: 0,
      sort: "cited",
      filters: {
        applied: { domain: ["python.org"], technicality_min: 0.25 },
        unrecognized: ["tecnicality_min"],
      },
    });
  });

  test("repeated list filters are joined; a repeated single parameter is a 400", async () => {
    const joined = await api.request("GET", "/api/content?type=docs&type=blog&format=article");
    expect(((await joined.json()) as { filters: { applied: unknown } }).filters.applied).toEqual({
      type: ["docs", "blog"],
      format: ["article"],
    });
    const twice = await expectProblem(
      await api.request("GET", "/api/content?limit=5&limit=6"),
      400,
      "invalid_parameter",
    );
    expect(twice.detail).toContain("limit");
    const unknownTwice = await api.request("GET", "/api/content?zz=1&zz=2");
    expect(
      ((await unknownTwice.json()) as { filters: { unrecognized: unknown } }).filters.unrecognized,
    ).toEqual(["zz"]);
  });

  test("locale filters are echoed as pages write them", async () => {
    const cases: [string, string[]][] = [
      ["EN-us", ["en-US"]],
      ["zh-hant-tw,de", ["zh-Hant-TW", "de"]],
      ["iw,he", ["he"]],
    ];
    for (const [given, echoed] of cases) {
      const r = await api.get("/api/content", { locale: given });
      expect(
        ((await r.json()) as { filters: { applied: { locale: unknown } } }).filters.applied.locale,
      ).toEqual(echoed);
    }
  });

  test("published_after echoes a date as given and a time in UTC", async () => {
    const date = await api.get("/api/content", { published_after: "2026-03-02" });
    expect(((await date.json()) as { filters: { applied: unknown } }).filters.applied).toEqual({
      published_after: "2026-03-02",
    });
    const time = await api.get("/api/content", { published_after: "2026-03-02T01:30:00+02:00" });
    expect(((await time.json()) as { filters: { applied: unknown } }).filters.applied).toEqual({
      published_after: "2026-03-01T23:30:00Z",
    });
  });
});

test.each(["/api/facets", "/api/search"])("%s checks the collection slug too", async (path) => {
  for (const value of ["", "Bad Slug!"]) {
    const params = { collection: value, ...(path === "/api/search" ? { q: "x" } : {}) };
    const problem = await expectProblem(await api.get(path, params), 400, "invalid_parameter");
    expect(problem.detail).toContain("collection");
  }
});

test("job URLs: a bad bucket or offset is a 400, the largest offset is fine", async () => {
  const r = await api.postJson("/api/crawl", { domain: "example.org", budget: 3 });
  const { job_id } = (await r.json()) as { job_id: string };
  await expectProblem(
    await api.get(`/api/jobs/${job_id}/urls`, { bucket: "nope" }),
    400,
    "invalid_parameter",
  );
  for (const offset of ["-1", "9223372036854775808", "100000000000000000000"]) {
    await expectProblem(
      await api.get(`/api/jobs/${job_id}/urls`, { offset }),
      400,
      "invalid_parameter",
    );
  }
  const ok = await api.get(`/api/jobs/${job_id}/urls`, {
    offset: Number.MAX_SAFE_INTEGER,
    bucket: "pending",
  });
  expect(ok.status).toBe(200);
  expect(await ok.json()).toMatchObject({
    data: [],
    total: 0,
    filters: { applied: { bucket: "pending" } },
  });
  await api.request("POST", `/api/jobs/${job_id}/cancel`, { headers: api.auth });
});

test("HEAD is a GET without its body", async () => {
  const got = await api.get("/api/content", { limit: 5 });
  const head = await api.request("HEAD", "/api/content?limit=5");
  expect(head.status).toBe(200);
  expect(await head.text()).toBe("");
  expect(head.headers.get("content-type")).toBe(got.headers.get("content-type"));
  expect(head.headers.get("content-length")).toBe(String((await got.arrayBuffer()).byteLength));
  expect(head.headers.get("x-webcorpus-version")).toBeTruthy();
  const missing = await api.request("HEAD", "/api/jobs/job_doesnotexist");
  expect(missing.status).toBe(404);
  expect(await missing.text()).toBe("");
  expect(missing.headers.get("content-type")).toStartWith("application/problem+json");
});

test("a server failure is a generic 500 problem with the version header and no internals", async () => {
  const broken = makeApp();
  try {
    broken.store.write.run(sql`DROP TABLE collection_members`);
    const r = await broken.get("/api/collections");
    await expectProblem(r, 500, "internal");
    expect(r.headers.get("x-webcorpus-version")).toBeTruthy();
    const text = JSON.stringify(await broken.get("/api/collections").then((x) => x.json()));
    expect(text).not.toContain("collection_members");
    expect(text).not.toContain("SELECT");
  } finally {
    broken.close();
  }
});

describe("rate limit on crawl starts", () => {
  test("past the per-key limit a start is a 429 with Retry-After", async () => {
    const limited = makeApp({ CRAWL_RATE_PER_MINUTE: "2" });
    try {
      for (const domain of ["a-example.com", "b-example.com"]) {
        expect((await limited.postJson("/api/crawl", { domain })).status).toBe(202);
      }
      const r = await limited.postJson("/api/crawl", { domain: "c-example.com" });
      await expectProblem(r, 429, "rate_limited");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // another key has its own allowance
      const other = createKey(limited.store.write, "other");
      const r2 = await limited.postJson(
        "/api/crawl",
        { domain: "c-example.com" },
        { Authorization: `Bearer ${other}` },
      );
      expect(r2.status).toBe(202);
    } finally {
      limited.close();
    }
  });

  test("refused crawls do not count against it", async () => {
    const limited = makeApp({ CRAWL_RATE_PER_MINUTE: "2" });
    try {
      expect((await limited.postJson("/api/crawl", { domain: "a-example.com" })).status).toBe(202);
      for (let i = 0; i < 4; i++) {
        await expectProblem(
          await limited.postJson("/api/crawl", { domain: "a-example.com" }),
          409,
          "conflict",
        );
      }
      expect((await limited.postJson("/api/crawl", { domain: "b-example.com" })).status).toBe(202);
      await expectProblem(
        await limited.postJson("/api/crawl", { domain: "c-example.com" }),
        429,
        "rate_limited",
      );
    } finally {
      limited.close();
    }
  });
});

test("reads need a key when public reads are off", async () => {
  const closed = makeApp({ PUBLIC_READS: "false" });
  try {
    await expectProblem(await closed.get("/api/content"), 401, "unauthorized");
    const ok = await closed.request("GET", "/api/content", { headers: closed.auth });
    expect(ok.status).toBe(200);
  } finally {
    closed.close();
  }
});
