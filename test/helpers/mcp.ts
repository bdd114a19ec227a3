/** MCP clients for tests: the SDK's own Client over streamable HTTP, and raw JSON-RPC posts. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Every tool the server lists, sorted. */
export const TOOL_NAMES = [
  "get_collection",
  "get_domain",
  "get_domain_markdown",
  "get_job",
  "get_page",
  "get_page_markdown",
  "list_collections",
  "list_content",
  "list_facets",
  "place_on_shelf",
  "read_url",
  "search",
  "start_crawl",
] as const;

export const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
};

export const MCP_HEADERS = {
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
};

export async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "webcorpus-test", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

/** One call on a fresh session, as an agent's client would make it. */
export async function call(
  url: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<CallToolResult> {
  const client = await connect(url, headers);
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: structured content is read by shape in assertions
export type Json = any;

export function ok(result: CallToolResult): Json {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

export function errorText(result: CallToolResult): string {
  if (!result.isError) throw new Error(`not an error: ${JSON.stringify(result).slice(0, 300)}`);
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

export function postRaw(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { ...MCP_HEADERS, ...headers },
  });
}
