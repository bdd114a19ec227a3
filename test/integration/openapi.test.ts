/**
 * The OpenAPI document documents every endpoint and parameter of SPEC.md (its endpoint table,
 * walked here) and CONTRACT.md, with problem documents for errors and a key for writes.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Value } from "@sinclair/typebox/value";
import { exampleIds } from "../../src/schemas/examples.ts";
import { Problem } from "../../src/schemas/responses.ts";
import { PROBLEMS, type ProblemCode } from "../../src/services/errors.ts";
import { makeApp, type TestApp } from "../helpers/app.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const FIXTURE = join(import.meta.dir, "../fixtures/spec/SPEC.md");
const SHARED = join(import.meta.dir, "../../../shared/SPEC.md");

interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema: Record<string, unknown>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
}
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let api: TestApp;
let doc: Doc;
beforeAll(async () => {
  api = makeApp();
  doc = (await (await api.get("/api/openapi.json")).json()) as Doc;
});
afterAll(() => api.close());

interface SpecRow {
  method: string;
  path: string;
  params: string[];
  body: string[];
}

/** The rows of SPEC.md's endpoint table: method, path as OpenAPI writes it, parameter names. */
function specEndpoints(text: string): SpecRow[] {
  const rows: SpecRow[] = [];
  for (const line of text.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 5 || !/^(GET|POST|PUT|DELETE|any)$/.test(cells[1] ?? "")) continue;
    const [, method = "", rawPath = "", rawParams = ""] = cells;
    const path = rawPath.replace(/<([a-z_]+)>/g, "{$1}");
    let params: string[] = [];
    let body: string[] = [];
    if (rawParams.startsWith("JSON body with ")) {
      body = rawParams.slice("JSON body with ".length).split(/, | and /);
    } else if (!/^none$|^MCP /.test(rawParams)) {
      params = rawParams
        .split(",")
        .map((p) => (p.trim().split(" ")[0] ?? "").trim())
        .filter(Boolean);
    }
    rows.push({ method: method.toLowerCase(), path, params, body });
  }
  return rows;
}

test("the committed copy of SPEC.md is the shared one", () => {
  if (existsSync(SHARED)) expect(readFileSync(FIXTURE, "utf8")).toBe(readFileSync(SHARED, "utf8"));
  expect(existsSync(FIXTURE)).toBe(true);
});

test("SPEC.md's endpoint table has the endpoints we expect to walk", () => {
  const rows = specEndpoints(readFileSync(FIXTURE, "utf8"));
  expect(rows.length).toBe(11);
  expect(rows.find((r) => r.path === "/api/content")?.params).toContain("published_after");
  expect(rows.find((r) => r.path === "/api/crawl")?.body).toEqual([
    "domain",
    "budget",
    "refresh",
    "force",
    "shots",
  ]);
});

test("every endpoint and parameter SPEC.md names is in the OpenAPI document", () => {
  expect(doc.openapi).toMatch(/^3\.1\./);
  const missing: string[] = [];
  for (const row of specEndpoints(readFileSync(FIXTURE, "utf8"))) {
    const item = doc.paths[row.path];
    const methods = row.method === "any" ? ["get", "post"] : [row.method];
    for (const method of methods) {
      const op = item?.[method];
      if (!op) {
        missing.push(`${method.toUpperCase()} ${row.path}`);
        continue;
      }
      const names = new Set((op.parameters ?? []).map((p) => p.name));
      for (const param of row.params) if (!names.has(param)) missing.push(`${row.path} ?${param}`);
      const bodySchema = op.requestBody?.content["application/json"]?.schema.properties ?? {};
      for (const field of row.body)
        if (!(field in bodySchema)) missing.push(`${row.path} body.${field}`);
    }
  }
  expect(missing).toEqual([]);
});

test("CONTRACT.md's further endpoints are documented too", () => {
  const expected: [string, string, string[]][] = [
    ["get", "/api/jobs", ["domain", "state", "limit", "offset"]],
    ["get", "/api/jobs/{job_id}/urls", ["job_id", "bucket", "limit", "offset"]],
    ["post", "/api/jobs/{job_id}/cancel", ["job_id"]],
    ["get", "/api/facets", ["domain", "collection"]],
    ["put", "/api/collections/{slug}", ["slug"]],
    ["post", "/api/collections/{slug}/members", ["slug"]],
    ["delete", "/api/collections/{slug}/members/{domain}", ["slug", "domain"]],
    ["get", "/api/search", ["collection"]],
    ["get", "/api/content/{page_id}", ["page_id", "markdown"]],
  ];
  for (const [method, path, params] of expected) {
    const op = doc.paths[path]?.[method];
    expect(op, `${method} ${path}`).toBeDefined();
    expect((op?.parameters ?? []).map((p) => p.name)).toEqual(expect.arrayContaining(params));
  }
});

test("every operation documents its errors as problem documents; writes declare the key", () => {
  const problemRef = "#/components/schemas/Problem";
  expect(doc.components.schemas.Problem).toBeDefined();
  // Elysia's model `$id` ("#/components/schemas/Problem") made Swagger UI's resolver fail.
  expect(JSON.stringify(doc)).not.toContain('"$id"');
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      // The MCP transport refuses a request with a JSON-RPC error (400), never a problem.
      for (const status of path === "/api/mcp" ? ["500"] : ["400", "500"]) {
        const response = op.responses[status];
        expect(response, `${method} ${path} ${status}`).toBeDefined();
        expect(JSON.stringify(response)).toContain(problemRef);
      }
      const write = ["post", "put", "delete"].includes(method) && path !== "/api/mcp";
      if (write) {
        expect(op.security, `${method} ${path}`).toEqual([{ bearer: [] }]);
        expect(JSON.stringify(op.responses["401"])).toContain(problemRef);
      }
    }
  }
});

test("the document is valid OpenAPI 3.1", async () => {
  const result = await new Validator().validate(doc as never);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test("the documented bounds are the configured ones", async () => {
  // A rate far above any real one (schemathesis runs with it): the 429 example is made at once.
  const small = makeApp({
    CONTENT_LIMIT: "50",
    MAX_BUDGET: "600",
    CRAWL_RATE_PER_MINUTE: "1000000",
    MAX_BODY_REQUEST_BYTES: "4096",
  });
  try {
    const d = (await (await small.get("/api/openapi.json")).json()) as Doc;
    const limit = d.paths["/api/content"]?.get?.parameters?.find((p) => p.name === "limit") as
      | { schema: unknown }
      | undefined;
    expect(JSON.stringify(limit?.schema)).toContain('"maximum":50');
    const body =
      d.paths["/api/crawl"]?.post?.requestBody?.content["application/json"]?.schema.properties;
    expect(JSON.stringify(body?.budget)).toContain('"maximum":600');
    const errors = d.paths["/api/crawl"]?.post?.responses ?? {};
    expect(JSON.stringify(errors["429"])).toContain("at most 1000000 crawl starts per minute");
    expect(JSON.stringify(errors["413"])).toContain("the body is limited to 4096 bytes");
  } finally {
    small.close();
  }
});

test("Swagger UI's page loads its script and stylesheet from this server, not a CDN", async () => {
  const page = await (await api.get("/api/docs")).text();
  expect(page).not.toMatch(/https?:\/\//i.test(page) ? /unpkg|jsdelivr|cdn\./ : /$^/);
  const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
  expect(assets).toEqual(
    expect.arrayContaining([
      "/api/docs/assets/swagger-ui-bundle.js",
      "/api/docs/assets/swagger-ui.css",
    ]),
  );
  for (const asset of assets) {
    const r = await api.get(asset);
    expect(r.status).toBe(200);
    expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  }
  expect(page).toContain("/api/openapi.json");
});

test("GET / redirects to Swagger UI over a real socket, and / is not in the document", async () => {
  const server = api.app.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const base = `http://127.0.0.1:${server.server?.port}`;
    const r = await fetch(`${base}/`, { redirect: "manual" });
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/api/docs");
    const followed = await fetch(`${base}/`);
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`${base}/api/docs`);
    expect(await followed.text()).toContain("/api/openapi.json");
  } finally {
    await server.stop(true);
  }
  expect(Object.keys(doc.paths)).not.toContain("/");
});

interface MediaType {
  schema?: { examples?: unknown[] };
  example?: unknown;
}
type Response = { description: string; content?: Record<string, MediaType> };

function operations(): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]): [string, Operation] => [
      `${method.toUpperCase()} ${path}`,
      op,
    ]),
  );
}

const responsesOf = (op: Operation) => Object.entries(op.responses) as [string, Response][];

test("every parameter is described on the parameter itself, where Swagger UI shows it", () => {
  const undescribed: string[] = [];
  let count = 0;
  for (const [name, op] of operations()) {
    for (const param of op.parameters ?? []) {
      count++;
      if (!param.description?.trim() || "description" in param.schema) {
        undescribed.push(`${name} ${param.name}`);
      }
    }
  }
  expect(count).toBeGreaterThan(50);
  expect(undescribed).toEqual([]);
  const type = doc.paths["/api/content"]?.get?.parameters?.find((p) => p.name === "type");
  expect(type?.description).toContain("Values: homepage, product");
});

test("every success answer has its own description and, with a JSON or text body, an example", () => {
  const faults: string[] = [];
  for (const [name, op] of operations()) {
    for (const [status, response] of responsesOf(op)) {
      if (!status.startsWith("2")) continue;
      if (/^Response for status/.test(response.description)) faults.push(`${name} ${status}`);
      for (const [type, media] of Object.entries(response.content ?? {})) {
        if (type === "image/png") continue;
        if (media.example === undefined && !media.schema?.examples?.length) {
          faults.push(`${name} ${status} ${type}: no example`);
        }
      }
    }
  }
  expect(faults).toEqual([]);
});

test("every problem answer has an example problem of its status; search answers may be 501", () => {
  const faults: string[] = [];
  let count = 0;
  for (const [name, op] of operations()) {
    for (const [status, response] of responsesOf(op)) {
      const media = response.content?.["application/problem+json"];
      if (!media) continue;
      count++;
      const example = media.example as { status?: number; code?: ProblemCode } | undefined;
      const code = example?.code;
      if (
        !example ||
        !code ||
        example.status !== Number(status) ||
        PROBLEMS[code][1] !== example.status
      ) {
        faults.push(`${name} ${status}: ${JSON.stringify(example)}`);
      } else if (!Value.Check(Problem, example)) {
        faults.push(`${name} ${status}: not a Problem`);
      }
    }
  }
  expect(count).toBeGreaterThan(80);
  expect(faults).toEqual([]);
  for (const path of ["/api/content", "/api/search"]) {
    expect(Object.keys(doc.paths[path]?.get?.responses ?? {})).toContain("501");
  }
});

/** The documented example of a response, beside what this server answers for such a request. */
async function exampleAndAnswer(
  path: string,
  method: string,
  status: string,
  request: Promise<Response | globalThis.Response>,
): Promise<[unknown, unknown]> {
  const op = doc.paths[path]?.[method] as Operation;
  const content = (op.responses[status] as Response).content ?? {};
  const media = Object.values(content)[0];
  const example = media?.example ?? media?.schema?.examples?.[0];
  const answer = (await request) as globalThis.Response;
  expect(answer.status).toBe(Number(status));
  return [example, await answer.json()];
}

test("the error examples are what the server answers", async () => {
  const cases: [string, string, string, Promise<globalThis.Response>][] = [
    ["/api/content", "get", "400", api.get("/api/content", { technicality_min: 2 })],
    ["/api/content", "get", "501", api.get("/api/content", { q: "index" })],
    ["/api/search", "get", "501", api.get("/api/search", { q: "index" })],
    ["/api/content/{page_id}", "get", "404", api.get(`/api/content/${exampleIds.page}`)],
    ["/api/jobs/{job_id}", "get", "404", api.get(`/api/jobs/${exampleIds.job}`)],
    ["/api/crawl", "post", "401", api.postJson("/api/crawl", { domain: "example.com" }, {})],
    ["/api/mcp", "get", "405", api.get("/api/mcp")],
    [
      "/api/mcp",
      "post",
      "404",
      api.request("POST", "/api/mcp", {
        headers: {
          "mcp-session-id": "gone",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: "{}",
      }),
    ],
  ];
  for (const [path, method, status, request] of cases) {
    const [example, answer] = await exampleAndAnswer(path, method, status, request);
    expect({ path, status, example }).toEqual({ path, status, example: answer });
  }
});
