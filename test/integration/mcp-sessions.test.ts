/**
 * MCP sessions are bounded per client (a key, or the remote address for anonymous requests): a
 * client that opens session after session pushes out only its own.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import {
  anonymousClient,
  MAX_SESSIONS,
  MAX_SESSIONS_PER_CLIENT,
  McpEndpoint,
} from "../../src/mcp/http.ts";
import { toolRunner } from "../../src/mcp/server.ts";
import { toolTable } from "../../src/mcp/tools.ts";
import type { AppDeps } from "../../src/server/deps.ts";
import { createKey } from "../../src/services/keys-service.ts";
import { RateLimiter } from "../../src/services/rate-limiter.ts";
import { makeApp, type TestApp } from "../helpers/app.ts";
import { INIT, type Json, MCP_HEADERS, postRaw } from "../helpers/mcp.ts";

setDefaultTimeout(120_000);

let api: TestApp;
let mcp: string;
beforeAll(() => {
  api = makeApp();
  const server = api.app.listen({ hostname: "127.0.0.1", port: 0 });
  mcp = `http://127.0.0.1:${server.server?.port}/api/mcp`;
});
afterAll(async () => {
  await api.app.stop(true);
  api.close();
});

/** Opens a session over HTTP; returns the headers that use it. */
async function open(headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const r = await postRaw(mcp, INIT, headers);
  expect(r.status).toBe(200);
  const version = ((await r.json()) as Json).result.protocolVersion;
  return {
    ...headers,
    "mcp-session-id": r.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": version,
  };
}

const listTools = (headers: Record<string, string>) =>
  postRaw(mcp, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);

test("an anonymous client opening more than the whole cap of sessions evicts only its own", async () => {
  const keyed = await open({ authorization: `Bearer ${createKey(api.store.write, "agent")}` });
  const first = await open();
  let last = first;
  for (let i = 0; i < MAX_SESSIONS; i += 50) {
    const batch = await Promise.all(Array.from({ length: 50 }, () => open()));
    last = batch.at(-1) ?? last;
  }
  // The keyed client's session outlived a thousand anonymous ones from one address.
  expect((await listTools(keyed)).status).toBe(200);
  expect((await listTools(last)).status).toBe(200);
  // The anonymous client's oldest went to make room for its newest.
  expect((await listTools(first)).status).toBe(404);
});

function endpoint(limits: { total: number; perClient: number }) {
  const deps: AppDeps = {
    config: api.config,
    store: api.store,
    limiter: new RateLimiter(api.config.crawlRatePerMinute),
    embeddingBacklog: null,
    search: null,
  };
  return new McpEndpoint(api.config, api.store.read, toolRunner(toolTable(deps), deps), limits);
}

const initRequest = (headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/mcp", {
    method: "POST",
    body: JSON.stringify(INIT),
    headers: { ...MCP_HEADERS, ...headers },
  });

async function openAt(e: McpEndpoint, address: string | null, headers = {}): Promise<string> {
  const r = await e.handle(initRequest(headers), address);
  expect(r.status).toBe(200);
  return r.headers.get("mcp-session-id") ?? "";
}

test("per address for anonymous clients, per key otherwise; past the total, the heaviest client gives way", async () => {
  const e = endpoint({ total: 6, perClient: 3 });
  try {
    await openAt(e, "203.0.113.7");
    for (let i = 0; i < 5; i++) await openAt(e, "198.51.100.1");
    expect(e.sessionsOf(anonymousClient("198.51.100.1"))).toBe(3);
    expect(e.sessionsOf(anonymousClient("203.0.113.7"))).toBe(1);
    // One IPv6 host is one client across its /64.
    await openAt(e, "2001:db8:1:2::1");
    await openAt(e, "2001:db8:1:2:ffff::9");
    expect(e.sessionsOf(anonymousClient("2001:db8:1:2::5"))).toBe(2);
    expect(e.sessions).toBe(6);
    // A key is its own client, whatever its address; the total is reached, so the client
    // holding the most (198.51.100.1, three) loses its oldest; the others keep theirs.
    const key = createKey(api.store.write, "bounded");
    await openAt(e, "198.51.100.1", { authorization: `Bearer ${key}` });
    expect(e.sessions).toBe(6);
    expect(e.sessionsOf(anonymousClient("198.51.100.1"))).toBe(2);
    expect(e.sessionsOf(anonymousClient("203.0.113.7"))).toBe(1);
    expect(e.sessionsOf(anonymousClient("2001:db8:1:2::1"))).toBe(2);
  } finally {
    await e.close();
  }
});

test("a request that opens no session evicts none", async () => {
  const e = endpoint({ total: 2, perClient: 1 });
  try {
    const kept = await openAt(e, "192.0.2.1");
    const r = await e.handle(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        headers: MCP_HEADERS,
      }),
      "192.0.2.1",
    );
    expect(r.status).toBe(400);
    expect(e.sessions).toBe(1);
    const still = await e.handle(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        headers: { ...MCP_HEADERS, "mcp-session-id": kept, "mcp-protocol-version": "2025-11-25" },
      }),
      "192.0.2.1",
    );
    expect(still.status).toBe(200);
  } finally {
    await e.close();
  }
});

test("the bounds are what docs/api.md says", () => {
  expect([MAX_SESSIONS, MAX_SESSIONS_PER_CLIENT]).toEqual([1000, 32]);
  expect(anonymousClient("::ffff:192.0.2.1")).toBe(anonymousClient("192.0.2.1"));
  expect(anonymousClient(null)).toBe("addr:unknown");
});
