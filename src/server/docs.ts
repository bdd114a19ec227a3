/**
 * The OpenAPI document (generated from the route schemas) at /api/openapi.json and Swagger UI at
 * /api/docs, which loads its script and stylesheet from the swagger-ui-dist package we serve,
 * never from a CDN, so it works offline and behind firewalls.
 */

import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import css from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
// Embedded files (a path on disk from source; inside the executable after `bun build --compile`).
import bundleJs from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import { VERSION } from "../version.ts";
import { polishDocument } from "./openapi-polish.ts";
import type { ProblemLimits } from "./problem-examples.ts";

const FILES: Readonly<Record<string, { path: string; type: string }>> = {
  "swagger-ui.css": { path: css, type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": { path: bundleJs, type: "text/javascript; charset=utf-8" },
};

export const DESCRIPTION = `webcorpus indexes the public pages of company websites into a searchable corpus and serves it as JSON, markdown and MCP (at /api/mcp).

Reads are public (unless the operator sets WEBCORPUS_PUBLIC_READS=false). Writes need a key: make one with \`bun run webcorpus keys create NAME\`, then press **Authorize** and paste it. Errors are RFC 9457 problem documents (application/problem+json). Every list reports the filters it applied and the query parameters it did not recognize.`;

export const SPEC_PATH = "/api/openapi.json";

export function docs(extraPaths: Record<string, unknown>, limits: ProblemLimits) {
  let polished: { from: unknown; doc: unknown } | null = null;
  return new Elysia({ name: "docs" })
    .onAfterHandle({ as: "global" }, ({ path, response }) => {
      if (path !== SPEC_PATH || response instanceof Response) return;
      // The plugin caches its document until routes change; polish each new one once.
      const cached = polished;
      if (cached && cached.from === response) return cached.doc;
      const doc = polishDocument(response as never, limits);
      polished = { from: response, doc };
      return doc;
    })
    .get(
      "/api/docs/assets/:file",
      ({ params }) => {
        const file = FILES[params.file];
        if (!file) return new Response("not found", { status: 404 });
        return new Response(Bun.file(file.path), {
          headers: { "content-type": file.type, "cache-control": "public, max-age=86400" },
        });
      },
      { detail: { hide: true } },
    )
    .use(
      openapi({
        path: "/api/docs",
        specPath: SPEC_PATH,
        provider: "swagger-ui",
        exclude: { staticFile: false, paths: [/^\/api\/docs/, "/api/openapi.json"] },
        swagger: {
          cdn: "/api/docs/assets/swagger-ui-bundle.js",
          theme: "/api/docs/assets/swagger-ui.css",
          autoDarkMode: false,
          persistAuthorization: true,
          // Parameter rows then show minimum, maximum and maxLength beside defaults and enums.
          showCommonExtensions: true,
          // Read by the plugin's Swagger UI page; its own default is a path relative to the page.
          ...({ url: "/api/openapi.json" } as object),
        },
        documentation: {
          info: { title: "webcorpus", version: VERSION, description: DESCRIPTION },
          tags: [
            { name: "content", description: "Pages: faceted lists, one page, markdown" },
            { name: "search", description: "Hybrid search over page chunks" },
            { name: "facets", description: "Facet vocabularies and counts" },
            { name: "domains", description: "Domain records and company bundles" },
            { name: "collections", description: "Shelves of companies" },
            { name: "crawl", description: "Crawls and their jobs" },
            { name: "mcp", description: "MCP over streamable HTTP" },
          ],
          components: {
            securitySchemes: {
              bearer: {
                type: "http",
                scheme: "bearer",
                description: "A key from `webcorpus keys create`",
              },
            },
          },
          paths: extraPaths as never,
        },
      }),
    );
}
