/** The Elysia app: conventions as plugins, one route module per resource. */
import { Elysia } from "elysia";
import { pageMarkdownExample } from "../schemas/examples.ts";
import { pageIdParams } from "../schemas/params.ts";
import type { AppDeps } from "./deps.ts";
import { docs } from "./docs.ts";
import { problems } from "./problems.ts";
import { repeatedParams } from "./query.ts";
import { collectionsRoutes } from "./routes/collections.ts";
import { contentRoutes } from "./routes/content.ts";
import { crawlRoutes } from "./routes/crawl.ts";
import { domainsRoutes } from "./routes/domains.ts";
import { facetsRoutes } from "./routes/facets.ts";
import { fetchRoutes } from "./routes/fetch.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { searchRoutes } from "./routes/search.ts";
import { versionHeader } from "./version.ts";

const problemRef = { $ref: "#/components/schemas/Problem" };
const problemContent = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: problemRef } },
});

/**
 * `/api/content/{page_id}.md` is served by the `/api/content/:page_id` route (Elysia's router
 * cannot put a literal suffix after a parameter); its operation is described here from the same
 * parameter schema.
 */
const markdownPath = {
  "/api/content/{page_id}.md": {
    get: {
      tags: ["content"],
      summary: "One page as markdown with a YAML frontmatter block",
      description:
        "The frontmatter (id, url, canonical_url, title, domain, locale, type, published, fetched_at, words) keeps the page attributable when pasted elsewhere.",
      operationId: "getApiContentByPage_idMd",
      parameters: [
        { name: "page_id", in: "path", required: true, schema: pageIdParams.properties.page_id },
      ],
      responses: {
        200: {
          description: "The page as markdown",
          content: {
            "text/markdown; charset=utf-8": {
              schema: { type: "string" },
              example: pageMarkdownExample,
            },
          },
        },
        400: problemContent("Invalid parameter"),
        401: problemContent("Missing or unknown key"),
        404: problemContent("No such page"),
        500: problemContent("Internal error"),
      },
    },
  },
};

/** Where `GET /` sends a browser. */
export const DOCS_PATH = "/api/docs";

export function createApp(deps: AppDeps) {
  const app: Elysia = new Elysia({ name: "webcorpus" })
    .use(versionHeader)
    .use(problems(() => app.routes))
    .use(repeatedParams)
    .use(docs(markdownPath, deps.config))
    // The bare address is where a newcomer lands first: Swagger UI, not a 404.
    .get("/", () => new Response(null, { status: 302, headers: { location: DOCS_PATH } }), {
      detail: { hide: true },
    })
    .use(contentRoutes(deps))
    .use(searchRoutes(deps))
    .use(facetsRoutes(deps))
    .use(domainsRoutes(deps))
    .use(collectionsRoutes(deps))
    .use(crawlRoutes(deps))
    .use(fetchRoutes(deps))
    .use(mcpRoutes(deps)) as unknown as Elysia;
  return app;
}
