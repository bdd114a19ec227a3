/**
 * /api/mcp over real HTTP, driven by the SDK's own Client: every tool result is compared with the
 * HTTP API's JSON for the same request; errors are tool results carrying the problem document.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createKey } from "../../src/services/keys-service.ts";
import { makeApp, type TestApp } from "../helpers/app.ts";
import { ACME, type BuiltCorpus, buildCorpus, SHELF } from "../helpers/corpus.ts";
import {
  call,
  connect,
  errorText,
  INIT,
  type Json,
  MCP_HEADERS,
  ok,
  postRaw,
} from "../helpers/mcp.ts";

const READ_TOOLS = [
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
];
const WRITE_TOOLS = ["start_crawl", "place_on_shelf"];

let api: TestApp;
let corpus: BuiltCorpus;
let base: string;
let mcp: string;
beforeAll(() => {
  api = makeApp({ CRAWL_RATE_PER_MINUTE: "1000" });
  corpus = buildCorpus(api.store.write);
  const server = api.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${server.server?.port}`;
  mcp = `${base}/api/mcp`;
});
afterAll(async () => {
  await api.app.stop(true);
  api.close();
});

const http = async (path: string, params: Record<string, string | number> = {}): Promise<Json> => {
  const query = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
  );
  return (await fetch(`${base}${path}${Object.keys(params).length ? `?${query}` : ""}`)).json();
};

function problemOf(
  result: Awaited<ReturnType<typeof call>>,
  name: string,
  code = "invalid_parameter",
) {
  expect(errorText(result)).toStartWith(`${code}: ${name}`);
  const problem = result.structuredContent as Json;
  expect(problem.code).toBe(code);
  expect(problem.type).toBe(`urn:webcorpus:error:${code}`);
  const key = code === "invalid_body" ? "field" : "param";
  expect(problem.errors.map((e: Json) => e[key])).toEqual([name]);
  return problem;
}

test("initialize and list the twelve tools, with JSON Schemas from the HTTP API's", async () => {
  const client = await connect(mcp);
  try {
    expect(client.getServerVersion()?.name).toBe("webcorpus");
    expect(client.getInstructions()).toContain("list_content");
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(JSON.stringify(tool.inputSchema)).not.toContain('"x-param"');
      // A `$id` with a fragment is invalid JSON Schema: the Python SDK refuses every result.
      expect(JSON.stringify(tool)).not.toContain('"$id"');
    }
    for (const name of WRITE_TOOLS) {
      expect(byName.get(name)?.description).toContain("API key");
      expect(byName.get(name)?.annotations?.readOnlyHint).toBe(false);
    }
    expect(byName.get("get_page")?.annotations?.readOnlyHint).toBe(true);
    const props = byName.get("list_content")?.inputSchema.properties as Json;
    expect(props.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(props.offset.maximum).toBe(10000);
    expect(props.technicality_min).toMatchObject({ type: "number", minimum: 0, maximum: 1 });
    expect(props.sort.enum).toContain("relevance");
    expect(props.type.anyOf[1].items.enum).toContain("docs");
    expect(props.q.maxLength).toBe(1000);
    const search = byName.get("search")?.inputSchema as Json;
    expect(search.required).toEqual(["q"]);
    expect(search.properties.limit.maximum).toBe(50);
    expect(search.properties.mode.enum).toEqual(["hybrid", "vector", "text"]);
    const crawl = byName.get("start_crawl")?.inputSchema as Json;
    expect(crawl.properties.budget.maximum).toBe(10000);
  } finally {
    await client.close();
  }
});

describe("reads answer the HTTP API's JSON", () => {
  test("list_content", async () => {
    const cases: [Record<string, unknown>, Record<string, string | number>][] = [
      [
        { domain: [ACME], limit: 5 },
        { domain: ACME, limit: 5 },
      ],
      [
        { domain: ACME, sort: "words", limit: 3, offset: 2 },
        { domain: ACME, sort: "words", limit: 3, offset: 2 },
      ],
      [
        { type: ["docs", "api_reference"], technicality_min: 0.2, has_code: true },
        { type: "docs,api_reference", technicality_min: 0.2, has_code: "true" },
      ],
      [
        { type: "docs,blog", locale: ["de"] },
        { type: "docs,blog", locale: "de" },
      ],
      [
        { words_min: 300, sort: "technicality" },
        { words_min: 300, sort: "technicality" },
      ],
    ];
    for (const [args, params] of cases) {
      const got = ok(await call(mcp, "list_content", args));
      expect(got).toEqual(await http("/api/content", params));
      expect(got.total).toBeGreaterThan(0);
    }
    // an argument the tool does not know is reported like an unknown query parameter
    const odd = ok(await call(mcp, "list_content", { limit: 1, tecnicality_min: 0.5 }));
    expect(odd.filters).toEqual({ applied: {}, unrecognized: ["tecnicality_min"] });
  });

  test("get_page and get_page_markdown, paged with offset", async () => {
    const listing = await http("/api/content", { domain: ACME, sort: "words", limit: 1 });
    const id = listing.data[0].id;
    expect(ok(await call(mcp, "get_page", { page_id: id }))).toEqual(
      await http(`/api/content/${id}`),
    );
    const slim = ok(await call(mcp, "get_page", { page_id: id.slice(3), markdown: false }));
    expect(slim).toEqual(await http(`/api/content/${id}`, { markdown: "false" }));
    expect("markdown" in slim).toBe(false);

    const text = await (await fetch(`${base}/api/content/${id}.md`)).text();
    const whole = await call(mcp, "get_page_markdown", { page_id: id, max_chars: 1_000_000 });
    expect(ok(whole)).toEqual({
      page_id: id,
      markdown: text,
      offset: 0,
      returned_chars: text.length,
      total_chars: text.length,
      truncated: false,
      next_offset: null,
    });
    expect(whole.content[0]).toEqual({ type: "text", text });
    const cut = await call(mcp, "get_page_markdown", { page_id: id, max_chars: 200 });
    const first = ok(cut);
    expect(first.truncated).toBe(true);
    expect(first.returned_chars).toBeLessThanOrEqual(200);
    expect(first.returned_chars).toBeGreaterThanOrEqual(100);
    expect(JSON.stringify(cut.content)).toContain(`offset=${first.next_offset}`);
    let joined = "";
    let offset = 0;
    for (;;) {
      const piece = ok(
        await call(mcp, "get_page_markdown", { page_id: id, max_chars: 150, offset }),
      );
      joined += piece.markdown;
      if (!piece.truncated) break;
      offset = piece.next_offset;
    }
    expect(joined).toBe(text);
  });

  test("get_domain and get_domain_markdown", async () => {
    const got = ok(await call(mcp, "get_domain", { domain: `www.${ACME}` }));
    expect(got).toEqual(await http(`/api/domains/${ACME}`));
    expect(got.coverage.estimate.low).toBeLessThanOrEqual(got.coverage.estimate.high);
    const stamp = (s: string) => s.replace(/^generated_at: .*$/m, "");
    const whole = ok(
      await call(mcp, "get_domain_markdown", {
        domain: ACME,
        limit: 5,
        type: ["docs"],
        max_chars: 1_000_000,
      }),
    );
    const text = await (
      await fetch(`${base}/api/domains/${ACME}/content.md?limit=5&type=docs`)
    ).text();
    expect(stamp(whole.markdown)).toBe(stamp(text));
    expect(whole.domain).toBe(ACME);
    const part = ok(await call(mcp, "get_domain_markdown", { domain: ACME, max_chars: 2000 }));
    expect(part.truncated).toBe(true);
    const rest = ok(
      await call(mcp, "get_domain_markdown", {
        domain: ACME,
        max_chars: 1_000_000,
        offset: part.next_offset,
      }),
    );
    expect(part.total_chars).toBe(rest.total_chars);
    expect(part.markdown.length + rest.markdown.length).toBe(part.total_chars);
  });

  test("collections, facets and jobs", async () => {
    expect(ok(await call(mcp, "list_collections", {}))).toEqual(await http("/api/collections"));
    expect(ok(await call(mcp, "get_collection", { slug: SHELF }))).toEqual(
      await http(`/api/collections/${SHELF}`),
    );
    expect(ok(await call(mcp, "list_facets", { domain: [ACME] }))).toEqual(
      await http("/api/facets", { domain: ACME }),
    );
    const job = corpus.acmeJobs[0];
    expect(ok(await call(mcp, "get_job", { job_id: job.slice(4) }))).toEqual(
      await http(`/api/jobs/${job}`),
    );
  });

  test("the text content is the structured content as JSON", async () => {
    const result = await call(mcp, "list_content", { limit: 2 });
    const first = result.content[0];
    expect(first?.type === "text" && JSON.parse(first.text)).toEqual(result.structuredContent);
  });
});

describe("errors are tool results carrying the HTTP API's problem document", () => {
  test.each([
    [{ type: ["bogus"] }, { type: "bogus" }, "type"],
    [{ type: "docs,bogus" }, { type: "docs,bogus" }, "type"],
    [{ limit: 500 }, { limit: 500 }, "limit"],
    [{ limit: "abc" }, { limit: "abc" }, "limit"],
    [{ audience: "robots" }, { audience: "robots" }, "audience"],
    [{ sort: "random" }, { sort: "random" }, "sort"],
    [{ sort: "relevance" }, { sort: "relevance" }, "sort"],
    [{ offset: 20000 }, { offset: 20000 }, "offset"],
    [{ technicality_min: 2 }, { technicality_min: 2 }, "technicality_min"],
    [{ collection: "Bad Slug!" }, { collection: "Bad Slug!" }, "collection"],
    [{ published_after: "yesterday" }, { published_after: "yesterday" }, "published_after"],
    [{ locale: ["not a tag"] }, { locale: "not a tag" }, "locale"],
  ] as [Record<string, unknown>, Record<string, string | number>, string][])(
    "list_content %j",
    async (args, params, name) => {
      const problem = problemOf(await call(mcp, "list_content", args), name);
      expect(problem).toEqual(await http("/api/content", params));
    },
  );

  test("argument types the schema refuses, one entry per argument", async () => {
    problemOf(await call(mcp, "list_content", { type: 5 }), "type");
    problemOf(await call(mcp, "list_content", { type: ["docs", 5] }), "type");
    problemOf(await call(mcp, "list_content", { has_code: "maybe" }), "has_code");
    expect(problemOf(await call(mcp, "get_page", {}), "page_id").detail).toContain("is required");
    problemOf(await call(mcp, "search", {}), "q");
    const both = await call(mcp, "list_content", { limit: "abc", offset: "def" });
    expect((both.structuredContent as Json).errors.map((e: Json) => e.param)).toEqual([
      "limit",
      "offset",
    ]);
    problemOf(await call(mcp, "get_domain_markdown", { domain: ACME, limit: 501 }), "limit");
    problemOf(await call(mcp, "get_page_markdown", { page_id: "pg_0", max_chars: 0 }), "max_chars");
    problemOf(await call(mcp, "list_facets", { domain: "not a domain" }), "domain");
    problemOf(await call(mcp, "get_domain", { domain: "http://x/" }), "domain");
  });

  test("unknown ids are not_found, saying where valid ones come from", async () => {
    for (const tool of ["get_page", "get_page_markdown"]) {
      const missing = await call(mcp, tool, { page_id: "pg_0000000000000000" });
      expect(errorText(missing)).toStartWith("not_found: page pg_0000000000000000 not found");
      expect(errorText(missing)).toContain("list_content");
      expect((missing.structuredContent as Json).status).toBe(404);
    }
    expect(errorText(await call(mcp, "get_domain", { domain: "never-crawled.org" }))).toStartWith(
      "not_found: domain never-crawled.org",
    );
    expect(errorText(await call(mcp, "get_job", { job_id: "job_nope" }))).toStartWith("not_found:");
    expect(errorText(await call(mcp, "get_collection", { slug: "nope" }))).toStartWith(
      "not_found:",
    );
  });

  test("search on a server without a search index answers the HTTP API's 501 problem", async () => {
    const result = await call(mcp, "search", { q: "install", type: "docs" });
    expect(result.structuredContent).toEqual(
      await http("/api/search", { q: "install", type: "docs" }),
    );
    problemOf(await call(mcp, "search", { q: "x", topics: "cooking" }), "topics");
    problemOf(await call(mcp, "search", { q: "x", mode: "fuzzy" }), "mode");
    problemOf(await call(mcp, "search", { q: "x", limit: 51 }), "limit");
  });
});

describe("write tools", () => {
  test("refuse without a key, as a tool error; nothing is written", async () => {
    const refused = await call(mcp, "start_crawl", { domain: "example.org", budget: 5 });
    expect(errorText(refused)).toStartWith("unauthorized:");
    expect(errorText(refused)).toContain("Authorization: Bearer");
    expect((refused.structuredContent as Json).status).toBe(401);
    const shelf = await call(mcp, "place_on_shelf", {
      collection: SHELF,
      domain: "a.org",
      reason: "r",
    });
    expect(errorText(shelf)).toStartWith("unauthorized:");
    expect((await http("/api/jobs", { domain: "example.org" })).total).toBe(0);
    const reader = createKey(api.store.write, "mcp-reader", ["read"]);
    const forbidden = await call(
      mcp,
      "start_crawl",
      { domain: "example.org" },
      { authorization: `Bearer ${reader}` },
    );
    expect(errorText(forbidden)).toStartWith("forbidden:");
  });

  test("start_crawl with a key queues a job; a second one conflicts naming it", async () => {
    const auth = api.auth;
    problemOf(
      await call(mcp, "start_crawl", { domain: "example.org", budget: 10 ** 6 }, auth),
      "budget",
      "invalid_body",
    );
    problemOf(
      await call(mcp, "start_crawl", { domain: "example.org", budget: "x" }, auth),
      "budget",
      "invalid_body",
    );
    problemOf(
      await call(mcp, "start_crawl", { domain: "http://x/y" }, auth),
      "domain",
      "invalid_body",
    );
    const started = ok(
      await call(mcp, "start_crawl", { domain: "docs.example.org", budget: 5 }, auth),
    );
    expect(started).toMatchObject({ state: "queued", domain: "example.org" });
    expect(started.job_id).toMatch(/^job_/);
    const again = await call(mcp, "start_crawl", { domain: "example.org" }, auth);
    expect(errorText(again)).toStartWith("conflict:");
    expect((again.structuredContent as Json).job_id).toBe(started.job_id);
    const job = ok(await call(mcp, "get_job", { job_id: started.job_id }));
    expect(job.params.budget).toBe(5);
    expect(job.state).toBe("queued");
  });

  test("place_on_shelf records placed_by = agent", async () => {
    const args = { collection: SHELF, domain: "Globex.test", reason: "makes everything" };
    const placed = ok(await call(mcp, "place_on_shelf", args, api.auth));
    expect(placed).toMatchObject({
      domain: "globex.test",
      placed_by: "agent",
      reason: "makes everything",
      created: true,
    });
    expect(ok(await call(mcp, "place_on_shelf", args, api.auth)).created).toBe(false);
    const shelf = await http(`/api/collections/${SHELF}`);
    expect(shelf.members.find((m: Json) => m.domain === "globex.test")?.placed_by).toBe("agent");
    const missing = await call(mcp, "place_on_shelf", { ...args, collection: "nope" }, api.auth);
    expect(errorText(missing)).toStartWith("not_found:");
    problemOf(
      await call(mcp, "place_on_shelf", { ...args, collection: "Bad Slug" }, api.auth),
      "collection",
    );
  });
});

describe("the HTTP layer", () => {
  test("a wrong key is a 401 problem before any MCP processing", async () => {
    const r = await postRaw(mcp, INIT, { authorization: "Bearer wck_wrong" });
    expect(r.status).toBe(401);
    expect(r.headers.get("content-type")).toStartWith("application/problem+json");
    expect(((await r.json()) as Json).code).toBe("unauthorized");
  });

  test("a foreign Origin is a 403; local ones and none pass", async () => {
    for (const origin of ["http://evil.example", "https://127.0.0.1.evil.example:8000", "null"]) {
      const r = await postRaw(mcp, INIT, { origin });
      expect(r.status).toBe(403);
      const body = (await r.json()) as Json;
      expect(body.code).toBe("forbidden");
      expect(body.detail).toContain("Origin");
    }
    const port = new URL(base).port;
    for (const origin of [
      null,
      `http://127.0.0.1:${port}`,
      "http://localhost:3000",
      "http://[::1]",
    ]) {
      const r = await postRaw(mcp, INIT, origin ? { origin } : {});
      expect(r.status).toBe(200);
      expect(((await r.json()) as Json).result.serverInfo.name).toBe("webcorpus");
      expect(r.headers.get("mcp-session-id")).toBeTruthy();
      expect(r.headers.get("x-webcorpus-version")).toBeTruthy();
    }
  });

  test("sessions per the transport spec", async () => {
    const r = await postRaw(mcp, INIT);
    const sid = r.headers.get("mcp-session-id") ?? "";
    const version = ((await r.json()) as Json).result.protocolVersion;
    const headers = { "mcp-session-id": sid, "mcp-protocol-version": version };
    const note = await postRaw(
      mcp,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      headers,
    );
    expect(note.status).toBe(202);
    const listed = await postRaw(mcp, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as Json).result.tools.length).toBe(12);
    const unknown = await postRaw(
      mcp,
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      {
        ...headers,
        "mcp-session-id": "not-a-session",
      },
    );
    expect(unknown.status).toBe(404);
    const misuse = await postRaw(mcp, { jsonrpc: "2.0", id: 4, method: "tools/nonsense" }, headers);
    expect(((await misuse.json()) as Json).error.code).toBe(-32601);
    const badTool = await postRaw(
      mcp,
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "nope", arguments: {} } },
      headers,
    );
    expect(((await badTool.json()) as Json).error.code).toBe(-32602);
    const get = await fetch(mcp, { headers: { ...MCP_HEADERS, ...headers } });
    expect(get.status).toBe(405);
    const gone = await fetch(mcp, { method: "DELETE", headers: { ...MCP_HEADERS, ...headers } });
    expect(gone.status).toBe(200);
    const after = await postRaw(mcp, { jsonrpc: "2.0", id: 6, method: "tools/list" }, headers);
    expect(after.status).toBe(404);
  });
});

test("WEBCORPUS_PUBLIC_READS=false: reads need a key too", async () => {
  const closed = makeApp({ PUBLIC_READS: "false" });
  const server = closed.app.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${server.server?.port}/api/mcp`;
  try {
    const r = await postRaw(url, INIT);
    expect(r.status).toBe(401);
    const reader = createKey(closed.store.write, "reader", ["read"]);
    const listed = ok(
      await call(url, "list_content", { limit: 1 }, { authorization: `Bearer ${reader}` }),
    );
    expect(listed.total).toBe(0);
  } finally {
    await closed.app.stop(true);
    closed.close();
  }
});
