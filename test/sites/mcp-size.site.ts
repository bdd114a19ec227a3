/**
 * What the MCP tools cost an agent's context: the size of `tools/list` (every client sends the
 * whole list to the model on every turn) and of typical answers, text against their JSON.
 * Printed, and held to the aim: tools/list at most 8,000 bytes for twelve tools, the same average
 * per tool for all thirteen (8,667 bytes), each text answer well under its JSON.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type LiveServer, live } from "../helpers/live.ts";
import { connect } from "../helpers/mcp.ts";

// The aim was 8,000 bytes for twelve tools; read_url (the thirteenth) gets the same average.
const TOOLS_LIST_MAX_BYTES = Math.round((8000 * 13) / 12);

let srv: LiveServer;
beforeAll(async () => {
  srv = live({ EMBEDDINGS: "false" });
  await srv.api.attachSearch();
});
afterAll(async () => {
  await srv?.close();
});

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

test("tools/list fits in 8,667 bytes (8,000 for twelve tools), each tool saying when to use it and what comes back", async () => {
  const client = await connect(`${srv.base}/api/mcp`);
  try {
    const listed = await client.listTools();
    const total = bytes(listed);
    const rows = listed.tools.map((t) => ({
      tool: t.name,
      bytes: bytes(t),
      description: t.description?.length ?? 0,
      input: bytes(t.inputSchema),
      output: bytes(t.outputSchema ?? {}),
    }));
    console.table(rows);
    console.log(
      `tools/list: ${total} bytes for ${listed.tools.length} tools (aim ≤ ${TOOLS_LIST_MAX_BYTES})`,
    );
    expect(listed.tools.length).toBe(13);
    for (const tool of listed.tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(60);
      expect(tool.outputSchema?.type).toBe("object");
    }
    expect(total).toBeLessThanOrEqual(TOOLS_LIST_MAX_BYTES);
  } finally {
    await client.close();
  }
});

test("answers are compact text; the JSON stays the structured content", async () => {
  const client = await connect(`${srv.base}/api/mcp`);
  const measure = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    const first = result.content[0];
    const text = first?.type === "text" ? first.text : "";
    return { tool: name, text: text.length, json: JSON.stringify(result.structuredContent).length };
  };
  try {
    const rows = [
      await measure("search", { q: "guide install configuration", mode: "text", limit: 10 }),
      await measure("list_content", { limit: 20 }),
      await measure("get_domain", { domain: "acme.test" }),
      await measure("get_job", { job_id: "job_0000000000000000a002" }),
      await measure("list_facets", {}),
    ];
    console.table(rows.map((r) => ({ ...r, ratio: (r.text / r.json).toFixed(2) })));
    for (const row of rows) {
      expect(row.text).toBeGreaterThan(0);
      expect(row.text, row.tool).toBeLessThan(row.json * (row.tool === "search" ? 0.9 : 0.5));
    }
  } finally {
    await client.close();
  }
});
