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
const WRITE_TOOLS = ["start_crawl", "read_url", "place_on_shelf"];

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

test("initialize and list the thirteen tools, with JSON Schemas from the HTTP API's", async () => {
  const client = await connect(mcp);
  try {
    expect(client.getServerVersion()?.name).toBe("webcorpus");
    expect(client.getInstructions()).toContain("list_content");
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(JSON.stringify(tool.inputSchema)).not.toContain('"x-param"');
      // A `$id` with a fragment is invalid JSON Schema: the Python SDK refuses every result.
      expect(JSON.stringify(tool)).not.toContain('"$id"');
    }
    for (const name of WRITE_TOOLS) {
      expect(byName.get(name)?.description).toContain("API key");
      // readOnlyHint absent means false (the spec's default); destructive is what differs
      expect(byName.get(name)?.annotations).toEqual({ destructiveHint: false });
    }
    expect(byName.get("get_page")?.annotations?.readOnlyHint).toBe(true);
    const props = byName.get("list_content")?.inputSchema.properties as Json;
    expect(props.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(props.offset.maximum).toBe(10000);
    expect(props.technicality_min).toEqual({ type: "number" }); // a 0..1 score, as its name says
    expect(props.sort.enum).toContain("relevance");
    // vocabularies are not repeated in every tool: list_facets has them, a bad value is refused
    expect(props.type).toMatchObject({ type: "array", items: { type: "string" } });
    expect(props.type.description).toContain("list_facets");
    // string caps are not published (they cost every turn); the server still holds them
    expect(props.q.maxLength).toBeUndefined();
    const long = await client.callTool({
      name: "list_content",
      arguments: { q: "x".repeat(1001) },
    });
    expect(long.isError).toBe(true);
    expect(JSON.stringify(long.content)).toContain(
      "q: must be a string of at most 1000 characters",
    );
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
});

describe("the text is compact markdown for the model; the JSON is the structured content", () => {
  const textOf = (result: Awaited<ReturnType<typeof call>>) => {
    ok(result);
    const first = result.content[0];
    return first?.type === "text" ? first.text : "";
  };
  const jsonSize = (result: Awaited<ReturnType<typeof call>>) =>
    JSON.stringify(result.structuredContent).length;

  test("search: one block per hit with the title, page id and URL to follow up", async () => {
    const api2 = makeApp({ EMBEDDINGS: "false" });
    buildCorpus(api2.store.write);
    await api2.attachSearch();
    const server = api2.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const result = await call(`http://127.0.0.1:${server.server?.port}/api/mcp`, "search", {
        q: "guide install",
        mode: "text",
        limit: 3,
      });
      const hits = ok(result).data as Json[];
      expect(hits.length).toBe(3);
      const text = textOf(result);
      expect(text).toStartWith('3 passages for "guide install" (text).');
      for (const [i, hit] of hits.entries()) {
        expect(text).toContain(`## ${i + 1}. ${hit.title}\n${hit.page_id} · ${hit.url}\n`);
        expect(text).toContain(hit.text.trim().slice(0, 200));
      }
      expect(text).not.toContain('"chunk_id"');
    } finally {
      await api2.app.stop(true);
      api2.close();
    }
  });

  test("list_content: a line per page with its id, URL and facets; paging and unknown arguments said", async () => {
    const result = await call(mcp, "list_content", { domain: ACME, limit: 3, tecnicality: 1 });
    const list = ok(result);
    const lines = textOf(result).split("\n");
    expect(lines[0]).toBe(
      `${list.total} pages match; 1-3 shown, sorted by cited. Next: offset=3. Filters: domain=${ACME}. Not recognized (ignored): tecnicality.`,
    );
    expect(lines.length).toBe(4);
    for (const [i, page] of (list.data as Json[]).entries()) {
      expect(lines[i + 1]).toStartWith(
        `- [${page.title}](${page.url}) · ${page.id} · ${page.facets.type}/${page.facets.format}`,
      );
    }
    expect(textOf(result).length).toBeLessThan(jsonSize(result) / 2);
  });

  test("get_domain: a summary, the whole record a call away", async () => {
    const short = await call(mcp, "get_domain", { domain: ACME });
    const record = ok(short);
    const text = textOf(short);
    expect(text).toStartWith(
      `# ${ACME}\nCoverage: ${record.coverage.indexed} pages indexed of ${record.coverage.known} URLs known.`,
    );
    expect(text).toContain(`Links to: ${record.links_to[0].domain}`);
    expect(text).toContain("get_domain(full=true)");
    expect(text.length).toBeLessThan(jsonSize(short) / 3);
    const full = await call(mcp, "get_domain", { domain: ACME, full: true });
    expect(JSON.parse(textOf(full))).toEqual(record);
    expect(full.structuredContent).toEqual(record);
  });

  test("get_job: progress and every non-empty bucket with its count; samples with full=true", async () => {
    const job = corpus.acmeJobs[1];
    const result = await call(mcp, "get_job", { job_id: job });
    const view = ok(result);
    const text = textOf(result);
    expect(text).toStartWith(`Job ${job} (${ACME}): ${view.state}`);
    for (const [name, bucket] of Object.entries(view.coverage.buckets as Record<string, Json>)) {
      if (bucket.count > 0) expect(text).toContain(`- ${name} ${bucket.count}: ${bucket.reason}`);
      else expect(text).not.toContain(`- ${name} `);
    }
    expect(text.length).toBeLessThan(jsonSize(result) / 3);
    const full = await call(mcp, "get_job", { job_id: job, full: true });
    expect(JSON.parse(textOf(full))).toEqual(view);
  });

  test("list_facets: values with counts on one line per facet; definitions on request", async () => {
    const result = await call(mcp, "list_facets", {});
    const list = ok(result);
    const text = textOf(result);
    for (const facet of list.data as Json[])
      expect(text).toContain(`- ${facet.facet} (${facet.param}`);
    const docs = (list.data[0].values as Json[]).find((v) => v.value === "docs");
    expect(text).toContain(`docs ${docs.pages}`);
    expect(text).not.toContain(docs.definition);
    expect(text.length).toBeLessThan(jsonSize(result) / 3);
    const defined = textOf(await call(mcp, "list_facets", { definitions: true }));
    expect(defined).toContain(`  - docs (${docs.pages}): ${docs.definition}`);
  });

  test("shelves, a page's metadata and a queued crawl read as sentences", async () => {
    const shelves = await call(mcp, "list_collections", {});
    expect(textOf(shelves)).toBe(
      "1 shelf:\n- tools: Tools (Companies that make tools); 2 companies, 1 crawled",
    );
    const shelf = await call(mcp, "get_collection", { slug: SHELF });
    expect(textOf(shelf)).toContain(`- ${ACME}: makes databases (placed by person 2026-11-02; `);
    const id = (await http("/api/content", { domain: ACME, limit: 1 })).data[0].id;
    const page = await call(mcp, "get_page", { page_id: id, markdown: false });
    const view = ok(page);
    expect(textOf(page)).toStartWith(`# ${view.title}\n${id} · ${view.url}\n`);
    expect(textOf(page)).toContain(`type ${view.facets.type}, format ${view.facets.format}`);
    const withBody = await call(mcp, "get_page", { page_id: id });
    expect(textOf(withBody)).toEndWith(`---\n\n${ok(withBody).markdown}`);
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
    // A collection filter naming no shelf: the HTTP API's 404, with the shelves there are.
    for (const tool of ["list_content", "list_facets"]) {
      const missing = problemOf(
        await call(mcp, tool, { collection: "no-such-shelf" }),
        "collection",
        "not_found",
      );
      expect(missing.status).toBe(404);
      expect(missing.detail).toContain(SHELF);
    }
    expect(
      problemOf(
        await call(mcp, "list_content", { collection: "no-such-shelf" }),
        "collection",
        "not_found",
      ),
    ).toEqual(await http("/api/content", { collection: "no-such-shelf" }));
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
    problemOf(
      await call(mcp, "place_on_shelf", { ...args, collection: "Bad Slug" }, api.auth),
      "collection",
    );
  });

  test("an agent never changes a person's placement", async () => {
    const before = (await http(`/api/collections/${SHELF}`)).members.find(
      (m: Json) => m.domain === ACME,
    );
    expect(before).toMatchObject({ placed_by: "person", reason: "makes databases" });
    const refused = await call(
      mcp,
      "place_on_shelf",
      { collection: SHELF, domain: ACME, reason: "an agent's view" },
      api.auth,
    );
    expect(errorText(refused)).toBe(
      `conflict: ${ACME} is on ${SHELF}, placed by a person (reason: makes databases); an agent cannot change a person's placement.`,
    );
    const same = ok(
      await call(mcp, "place_on_shelf", { collection: SHELF, domain: ACME }, api.auth),
    );
    expect(same).toMatchObject({ placed_by: "person", reason: "makes databases", created: false });
    const after = (await http(`/api/collections/${SHELF}`)).members.find(
      (m: Json) => m.domain === ACME,
    );
    expect(after).toEqual(before);
    // the HTTP API holds the same rule for a caller that says it is an agent
    const r = await fetch(`${base}/api/collections/${SHELF}/members`, {
      method: "POST",
      headers: { ...api.auth, "content-type": "application/json" },
      body: JSON.stringify({ domain: ACME, reason: "overwrite", placed_by: "agent" }),
    });
    expect(r.status).toBe(409);
  });

  test("an agent makes a shelf by placing a company on a new slug", async () => {
    const result = await call(
      mcp,
      "place_on_shelf",
      {
        collection: "vector-dbs",
        domain: ACME,
        reason: "stores vectors",
        shelf_name: "Vector DBs",
      },
      api.auth,
    );
    expect(ok(result)).toMatchObject({ domain: ACME, placed_by: "agent", created: true });
    expect(result.content[0]).toEqual({
      type: "text",
      text: `${ACME} placed on new shelf vector-dbs (placed by agent). Reason: stores vectors.`,
    });
    expect(await http("/api/collections/vector-dbs")).toMatchObject({
      name: "Vector DBs",
      description: "Made by an agent.",
      members: [{ domain: ACME, placed_by: "agent", reason: "stores vectors" }],
    });
    const unnamed = ok(
      await call(mcp, "place_on_shelf", { collection: "dev-tools", domain: ACME }, api.auth),
    );
    expect(unnamed.created).toBe(true);
    expect((await http("/api/collections/dev-tools")).name).toBe("Dev tools");
  });

  test("a new shelf's name takes no control characters; an empty q is 'must not be empty'", async () => {
    const args = { collection: "ctl-shelf", domain: ACME, shelf_name: "a\u0000b" };
    const refused = problemOf(
      await call(mcp, "place_on_shelf", args, api.auth),
      "shelf_name",
      "invalid_body",
    );
    expect(refused.detail).toBe(
      "shelf_name: must not contain tabs, newlines or control characters",
    );
    expect((await fetch(`${base}/api/collections/ctl-shelf`)).status).toBe(404);
    const empty = problemOf(await call(mcp, "list_content", { q: "" }), "q");
    expect(empty.detail).toBe("q: must not be empty");
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

  test("JSON that is not JSON-RPC is -32600 Invalid Request; a body that is not JSON -32700", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(mcp, { method: "POST", body, headers: { ...MCP_HEADERS, ...headers } });
    const r = await postRaw(mcp, INIT);
    const session = {
      "mcp-session-id": r.headers.get("mcp-session-id") ?? "",
      "mcp-protocol-version": ((await r.json()) as Json).result.protocolVersion,
    };
    for (const headers of [{}, session]) {
      for (const body of [
        "{}",
        "[]",
        '"x"',
        "1",
        "null",
        "[{}]",
        '{"jsonrpc":"2.0"}',
        '{"method":"initialize","id":1}',
      ]) {
        const answer = await post(body, headers);
        expect([body, answer.status]).toEqual([body, 400]);
        const rpc = (await answer.json()) as Json;
        expect([body, rpc.error.code]).toEqual([body, -32600]);
        expect(rpc.error.message).toStartWith("Invalid Request: ");
      }
      for (const body of ["{nope", "", "[1,"]) {
        const answer = await post(body, headers);
        expect([body, answer.status]).toEqual([body, 400]);
        expect([body, ((await answer.json()) as Json).error.code]).toEqual([body, -32700]);
      }
    }
    // The transport's own checks keep their answers: Accept first, then Content-Type.
    const plain = await fetch(mcp, {
      method: "POST",
      body: "{}",
      headers: { ...MCP_HEADERS, "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);
    const accept = await fetch(mcp, {
      method: "POST",
      body: "{}",
      headers: { ...MCP_HEADERS, accept: "application/json" },
    });
    expect(accept.status).toBe(406);
    // The session still answers.
    const listed = await postRaw(mcp, { jsonrpc: "2.0", id: 2, method: "tools/list" }, session);
    expect(listed.status).toBe(200);
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
    expect(((await listed.json()) as Json).result.tools.length).toBe(13);
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
