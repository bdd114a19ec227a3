/**
 * The card names @elysiajs/swagger; its last release (1.3.1) targets Elysia 1.3, and the same
 * authors' @elysiajs/openapi (1.4.x) is its maintained line. Both mounted on our real routes on
 * Elysia 1.4: what each documents, whether the document is valid OpenAPI, and what it costs.
 *
 *   bun run bench:openapi
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openapi } from "@elysiajs/openapi";
import { swagger } from "@elysiajs/swagger";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Elysia } from "elysia";
import { testConfig } from "../../src/config.ts";
import { openStore } from "../../src/db/client.ts";
import { problems } from "../../src/server/problems.ts";
import { repeatedParams } from "../../src/server/query.ts";
import { collectionsRoutes } from "../../src/server/routes/collections.ts";
import { contentRoutes } from "../../src/server/routes/content.ts";
import { crawlRoutes } from "../../src/server/routes/crawl.ts";
import { domainsRoutes } from "../../src/server/routes/domains.ts";
import { facetsRoutes } from "../../src/server/routes/facets.ts";
import { mcpRoutes } from "../../src/server/routes/mcp.ts";
import { searchRoutes } from "../../src/server/routes/search.ts";
import { RateLimiter } from "../../src/services/rate-limiter.ts";

const config = testConfig();
const store = openStore(":memory:");
const deps = { config, store, limiter: new RateLimiter(30), embeddingBacklog: null, search: null };

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

function build(plugin: "swagger" | "openapi") {
  const docs =
    plugin === "swagger"
      ? swagger({
          path: "/api/docs",
          specPath: "/api/openapi.json",
          provider: "swagger-ui",
          excludeStaticFile: false,
        })
      : openapi({
          path: "/api/docs",
          specPath: "/api/openapi.json",
          provider: "swagger-ui",
          exclude: { staticFile: false },
        });
  const app: Elysia = new Elysia()
    .use(problems(() => app.routes))
    .use(repeatedParams)
    .use(docs as unknown as Elysia)
    .use(contentRoutes(deps))
    .use(searchRoutes(deps))
    .use(facetsRoutes(deps))
    .use(domainsRoutes(deps))
    .use(collectionsRoutes(deps))
    .use(crawlRoutes(deps))
    .use(mcpRoutes(deps)) as unknown as Elysia;
  return app;
}

const spec = readFileSync(join(import.meta.dir, "../fixtures/spec/SPEC.md"), "utf8");
const specParams = [...spec.matchAll(/^\| (GET|POST|any) \| (\S+) \| ([^|]+) \|/gm)].flatMap(
  ([, , path, params]) =>
    (params?.startsWith("JSON body") ? "" : (params ?? ""))
      .split(",")
      .map((p) => p.trim().split(" ")[0] ?? "")
      .filter((p) => /^[a-z_]+$/.test(p) && p !== "none" && p !== "JSON")
      .map((p) => `${(path ?? "").replace(/<([a-z_]+)>/g, "{$1}")}?${p}`),
);

async function measure(plugin: "swagger" | "openapi") {
  const app = build(plugin);
  const get = () => app.handle(new Request("http://localhost/api/openapi.json"));
  let t0 = performance.now();
  const first = await get();
  const cold = performance.now() - t0;
  const text = await first.text();
  const doc = JSON.parse(text) as Doc;
  t0 = performance.now();
  for (let i = 0; i < 200; i++) await (await get()).text();
  const warm = (performance.now() - t0) / 200;
  let operations = 0;
  let summaries = 0;
  let tagged = 0;
  let jsonBodies = 0;
  let bodies = 0;
  let responseSchemas = 0;
  let formOrMultipart = 0;
  const documented = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const op of Object.values(item)) {
      operations++;
      if (op.summary) summaries++;
      if (Array.isArray(op.tags) && op.tags.length > 0) tagged++;
      const body = op.requestBody as { content?: Record<string, unknown> } | undefined;
      if (body) {
        bodies++;
        if (body.content?.["application/json"]) jsonBodies++;
      }
      for (const response of Object.values(
        (op.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>,
      )) {
        if (response.content) responseSchemas++;
        if (response.content?.["multipart/form-data"] || response.content?.["text/plain"])
          formOrMultipart++;
      }
      for (const p of (op.parameters ?? []) as { name: string }[])
        documented.add(`${path}?${p.name}`);
    }
  }
  const validation = await new Validator().validate(doc as never);
  const page = await (await app.handle(new Request("http://localhost/api/docs"))).text();
  const cdn = [...page.matchAll(/https:\/\/[^"' )]+/g)].map((m) => m[0]);
  return {
    plugin,
    version: JSON.parse(
      readFileSync(
        join(import.meta.dir, `../../node_modules/@elysiajs/${plugin}/package.json`),
        "utf8",
      ),
    ).version,
    openapi: doc.openapi,
    operations,
    summaries,
    tagged,
    "json request bodies": `${jsonBodies}/${bodies}`,
    "response schemas": responseSchemas,
    "responses also as form/text": formOrMultipart,
    "SPEC params documented": `${specParams.filter((p) => documented.has(p)).length}/${specParams.length}`,
    "SPEC params missing": specParams.filter((p) => !documented.has(p)).join(" ") || "none",
    "valid OpenAPI": validation.valid
      ? "yes"
      : `no (${JSON.stringify(validation.errors).slice(0, 160)})`,
    "doc bytes": text.length,
    "cold ms": cold.toFixed(1),
    "cached ms": warm.toFixed(2),
    "UI assets from a CDN": cdn.length ? cdn.join(" ") : "none",
  };
}

const rows = [await measure("swagger"), await measure("openapi")];
for (const key of Object.keys(rows[0] ?? {})) {
  console.log(
    `${key.padEnd(30)} ${rows.map((r) => String(r[key as keyof typeof r]).padEnd(48)).join(" ")}`,
  );
}
store.close();
