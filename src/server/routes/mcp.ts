import type { Server } from "bun";
import { Elysia, t } from "elysia";
import { MCP_PATH, McpEndpoint } from "../../mcp/http.ts";
import { toolRunner } from "../../mcp/server.ts";
import { toolTable } from "../../mcp/tools.ts";
import { jsonRpcExample } from "../../schemas/examples.ts";
import { JsonRpcAnswer, JsonRpcError } from "../../schemas/responses.ts";
import type { AppDeps } from "../deps.ts";
import { described, models, responses } from "../responses.ts";

const REGISTER =
  "Register this address with an MCP client (transport: streamable HTTP); see docs/api.md. Tools: search, list_content, get_page, get_page_markdown, get_domain, get_domain_markdown, list_collections, get_collection, get_job, list_facets; with a key: start_crawl, place_on_shelf.";

/** A refusal by the transport, as the JSON-RPC error it answers. */
const rpcError = (description: string, code: number, message: string) =>
  described(JsonRpcError, description, { jsonrpc: "2.0", error: { code, message }, id: null });

const badJson = rpcError(
  "The body is not JSON (-32700), or JSON but not JSON-RPC 2.0 (-32600 Invalid Request)",
  -32700,
  "Parse error: Invalid JSON",
);
const noSession = rpcError(
  "Unknown session: start a new one with initialize",
  -32001,
  "Session not found: start a new session",
);

export function mcpRoutes(deps: AppDeps) {
  const endpoint = new McpEndpoint(deps.config, deps.store.read, toolRunner(toolTable(deps), deps));
  // The endpoint reads the body itself: Elysia must not parse it first (-32700 otherwise). The
  // remote address bounds the sessions of anonymous clients (none when handed in-process).
  const handle = ({ request, server }: { request: Request; server: Server<unknown> | null }) =>
    endpoint.handle(request, server?.requestIP(request)?.address ?? null);
  const tags = ["mcp"];
  return new Elysia({ name: "routes:mcp" })
    .use(models)
    .post(MCP_PATH, handle, {
      parse: "none",
      response: {
        ...responses(
          {
            200: described(JsonRpcAnswer, "The JSON-RPC answer", jsonRpcExample),
            202: t.Null({ description: "Accepted (a notification or a response from the client)" }),
          },
          401,
          403,
        ),
        400: badJson,
        404: noSession,
        413: rpcError(
          "Body too large",
          -32000,
          "Payload Too Large: Request body must not exceed 65536 bytes",
        ),
      },
      detail: {
        tags,
        summary: "MCP messages (JSON-RPC 2.0 over streamable HTTP)",
        description: `${REGISTER} Send JSON-RPC messages with \`Accept: application/json, text/event-stream\`: \`initialize\` first (the answer carries \`Mcp-Session-Id\`), then that header on every request. An unknown session is a 404; a foreign \`Origin\` a 403; a wrong key a 401.`,
      },
    })
    .delete(MCP_PATH, handle, {
      parse: "none",
      response: {
        ...responses({ 200: t.Null({ description: "The session is closed" }) }, 401, 403),
        400: rpcError(
          "No Mcp-Session-Id header",
          -32000,
          "Bad Request: Mcp-Session-Id header is required",
        ),
        404: noSession,
      },
      detail: { tags, summary: "End an MCP session (Mcp-Session-Id)" },
    })
    .get(MCP_PATH, handle, {
      response: {
        ...responses({}, 401, 403),
        405: rpcError(
          "No stream is offered",
          -32000,
          "Method not allowed: this server sends no unprompted messages",
        ),
      },
      detail: {
        tags,
        summary: "The server-to-client stream: not offered (405)",
        description:
          "The server sends nothing unprompted, so it opens no stream: GET answers 405, as the transport specification allows.",
      },
    });
}
