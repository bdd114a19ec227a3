import { Elysia, t } from "elysia";
import { MCP_PATH, McpEndpoint } from "../../mcp/http.ts";
import { toolRunner } from "../../mcp/server.ts";
import { toolTable } from "../../mcp/tools.ts";
import type { AppDeps } from "../deps.ts";
import { models, responses } from "../responses.ts";

export function mcpRoutes(deps: AppDeps) {
  const endpoint = new McpEndpoint(deps.config, deps.store.read, toolRunner(toolTable(deps), deps));
  return new Elysia({ name: "routes:mcp" }).use(models).all(
    MCP_PATH,
    // The transport reads the body itself: Elysia must not parse it first (-32700 otherwise).
    ({ request }) => endpoint.handle(request),
    {
      parse: "none",
      response: responses(
        { 200: t.Any({ description: "MCP JSON-RPC messages (streamable HTTP)" }) },
        401,
        403,
        404,
        405,
      ),
      detail: {
        tags: ["mcp"],
        summary: "MCP over streamable HTTP",
        description:
          "Register this address with an MCP client (transport: streamable HTTP). Tools: search, list_content, get_page, get_page_markdown, get_domain, get_domain_markdown, list_collections, get_collection, get_job, list_facets; with a key: start_crawl, place_on_shelf. Not an endpoint to call by hand: send JSON-RPC messages (initialize first). POST carries messages, DELETE ends a session (Mcp-Session-Id); GET is 405 (the server sends nothing unprompted); an unknown session is 404; a foreign Origin 403.",
      },
    },
  );
}
