import { Elysia, t } from "elysia";
import { notImplemented } from "../../services/errors.ts";
import type { AppDeps } from "../deps.ts";
import { models, responses } from "../responses.ts";

export function mcpRoutes(_deps: AppDeps) {
  return new Elysia({ name: "routes:mcp" }).use(models).all(
    "/api/mcp",
    () => {
      throw notImplemented("the MCP endpoint");
    },
    {
      parse: "none",
      response: responses(
        { 200: t.Any({ description: "MCP JSON-RPC messages (streamable HTTP)" }) },
        401,
        403,
        501,
      ),
      detail: {
        tags: ["mcp"],
        summary: "MCP over streamable HTTP",
        description:
          "Register this address with an MCP client. Tools read the corpus; start_crawl and place_on_shelf need a key.",
      },
    },
  );
}
