/**
 * The MCP server over the tool table. The SDK's high-level `McpServer.registerTool` takes Zod
 * schemas only, so the tools are served by its low-level `Server` with `tools/list` and
 * `tools/call` handlers: their JSON Schemas are the TypeBox schemas of the HTTP API, and the
 * arguments are checked by the same TypeBox schemas (compiled), so a bad argument gets the problem
 * document the HTTP API sends.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type Tool as ListedTool,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { KeyRecord } from "../db/keys-repo.ts";
import { ServiceError } from "../services/errors.ts";
import { requireScope } from "../services/keys-service.ts";
import { VERSION } from "../version.ts";
import { type ArgumentParser, argumentParser } from "./arguments.ts";
import { publishedInput, publishedOutput } from "./published-schemas.ts";
import { toolError } from "./results.ts";
import { INSTRUCTIONS } from "./tool-descriptions.ts";
import type { Tool, ToolContext } from "./tools.ts";

const log = (message: string, err: unknown) => {
  console.error(`${new Date().toISOString()} ERROR ${message}`, err);
};

/** What a request's HTTP layer learned about its caller (the transport passes it as authInfo). */
export interface Caller {
  readonly key: KeyRecord | null;
}

export interface ToolRunner {
  readonly listed: ListedTool[];
  call(name: string, args: Record<string, unknown>, caller: Caller): Promise<CallToolResult>;
}

export function toolRunner(tools: readonly Tool[], deps: ToolContext["deps"]): ToolRunner {
  const byName = new Map<string, { tool: Tool; parser: ArgumentParser<Record<string, unknown>> }>();
  for (const tool of tools)
    byName.set(tool.name, { tool, parser: argumentParser(tool.input, tool.where) });
  const listed: ListedTool[] = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: publishedInput(tool.input) as ListedTool["inputSchema"],
    outputSchema: publishedOutput(tool.output, tool.outputFields) as ListedTool["outputSchema"],
    annotations: tool.annotations,
  }));
  return {
    listed,
    async call(name, args, caller) {
      const entry = byName.get(name);
      if (!entry)
        throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)}`);
      try {
        if (entry.tool.write) requireScope(caller.key, "write");
        const { value, unrecognized } = entry.parser.parse(args);
        return await entry.tool.run(value, { deps, key: caller.key, unrecognized });
      } catch (err) {
        if (err instanceof ServiceError) return toolError(err);
        log(`MCP tool ${name} failed`, err);
        return toolError(
          new ServiceError("internal", "the server failed to answer; the error has been logged"),
        );
      }
    },
  };
}

/** One MCP server (one per session: the SDK binds a server to one transport). */
export function mcpServer(runner: ToolRunner): Server {
  const server = new Server(
    { name: "webcorpus", title: "webcorpus", version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: runner.listed }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const caller = (extra.authInfo?.extra?.caller as Caller | undefined) ?? { key: null };
    return runner.call(request.params.name, request.params.arguments ?? {}, caller);
  });
  return server;
}
