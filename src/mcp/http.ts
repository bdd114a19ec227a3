/**
 * The MCP endpoint at /api/mcp: the SDK's web-standard streamable HTTP transport, one per session.
 *
 * Security per the MCP transport spec:
 * - `Origin` is checked on every request (DNS-rebinding protection): no Origin (non-browser
 *   clients) or an Origin whose host is localhost, 127.0.0.1, ::1, the configured host or this
 *   machine's name passes; any other Origin gets a 403 problem document.
 * - A present but wrong `Authorization: Bearer` key is a 401 before any MCP processing; so is a
 *   missing key when WEBCORPUS_PUBLIC_READS=false. Write tools are always listed and answer a
 *   tool error naming the missing key when called without one.
 * - Sessions (`Mcp-Session-Id`) live in memory, dropped after IDLE_MS without a request; an
 *   unknown session id is a 404 (the client starts a new session). Each client (a key, or for
 *   anonymous requests the remote address, an IPv6 address by its /64) holds at most
 *   MAX_SESSIONS_PER_CLIENT: its new session pushes out its own least recently used one. All
 *   together hold at most MAX_SESSIONS; past that, the least recently used session of the client
 *   holding the most goes, so a client with few sessions keeps them.
 * - A body that is JSON but not JSON-RPC 2.0 (`{}`, `[]`, `"x"`) is -32600 Invalid Request; the
 *   SDK's transport would answer -32700, the code of a body that is not JSON at all.
 * - Answers are JSON, never a held-open stream: GET (the server-to-client stream, unused here
 *   because the server sends nothing unprompted) is a 405, as the spec allows.
 */
import { hostname } from "node:os";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  readRequestBody,
  requestBodyTooLargeMessage,
} from "@modelcontextprotocol/sdk/server/requestBody.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../config.ts";
import { formatIp, parseIp } from "../crawl/ip.ts";
import type { Db } from "../db/client.ts";
import { problemResponse } from "../server/problems.ts";
import { ServiceError } from "../services/errors.ts";
import { authenticate, requireScope } from "../services/keys-service.ts";
import { type Caller, mcpServer, type ToolRunner } from "./server.ts";

export const MCP_PATH = "/api/mcp";
export const MAX_SESSIONS = 1000;
export const MAX_SESSIONS_PER_CLIENT = 32;
const IDLE_MS = 30 * 60 * 1000;
const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]", "::1"];
const WILDCARD_HOSTS = new Set(["", "0.0.0.0", "::", "[::]"]);

export function allowedOriginHosts(config: Config): ReadonlySet<string> {
  const hosts = new Set(LOCAL_HOSTS);
  const configured = config.host.toLowerCase();
  if (!WILDCARD_HOSTS.has(configured)) hosts.add(configured);
  hosts.add(hostname().toLowerCase());
  return hosts;
}

export function originAllowed(origin: string | null, hosts: ReadonlySet<string>): boolean {
  if (origin === null) return true;
  try {
    const url = new URL(origin.trim());
    return (url.protocol === "http:" || url.protocol === "https:") && hosts.has(url.hostname);
  } catch {
    return false;
  }
}

function jsonRpcError(status: number, code: number, message: string, headers = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** Whose session it is: `key:<id>`, or `addr:<address>` for anonymous requests. */
  readonly client: string;
  seen: number;
}

export interface SessionLimits {
  /** Sessions held by all clients together. */
  readonly total: number;
  /** Sessions held by one client (one key, or one address for anonymous requests). */
  readonly perClient: number;
}

/**
 * Who an anonymous request comes from: its remote address, an IPv6 one by its /64 (one host
 * usually holds a whole /64), an IPv4-mapped one as the IPv4 address; `addr:unknown` when the
 * server does not know it (a request handed to the app in-process).
 */
export function anonymousClient(address: string | null | undefined): string {
  const ip = address ? parseIp(address.replace(/%.*$/, "")) : null;
  if (!ip) return `addr:${address || "unknown"}`;
  if (ip.version === 4 || ip.value >> 32n === 0xffffn) {
    return `addr:${formatIp({ version: 4, value: ip.value & 0xffffffffn })}`;
  }
  return `addr:${(ip.value >> 64n).toString(16)}::/64`;
}

/** What is wrong with a parsed body as JSON-RPC 2.0, or null when it is one message or a batch. */
export function notJsonRpc(body: unknown): string | null {
  if (Array.isArray(body)) {
    if (body.length === 0) return "an empty batch";
    const bad = body.findIndex((m) => !JSONRPCMessageSchema.safeParse(m).success);
    return bad < 0 ? null : `batch item ${bad} is not a JSON-RPC 2.0 message`;
  }
  if (JSONRPCMessageSchema.safeParse(body).success) return null;
  return 'not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0" and a method, or an id with a result or an error)';
}

export class McpEndpoint {
  readonly #sessions = new Map<string, Session>();
  readonly #hosts: ReadonlySet<string>;
  readonly #runner: ToolRunner;
  readonly #db: Db;
  readonly #publicReads: boolean;
  readonly #maxBody: number;

  readonly #limits: SessionLimits;

  constructor(
    config: Config,
    db: Db,
    runner: ToolRunner,
    limits: SessionLimits = { total: MAX_SESSIONS, perClient: MAX_SESSIONS_PER_CLIENT },
  ) {
    this.#limits = limits;
    this.#hosts = allowedOriginHosts(config);
    this.#runner = runner;
    this.#db = db;
    this.#publicReads = config.publicReads;
    this.#maxBody = Math.max(config.maxBodyRequestBytes, 64 * 1024);
  }

  get sessions(): number {
    return this.#sessions.size;
  }

  /** Sessions held by one client (`key:<id>` or what `anonymousClient` makes of an address). */
  sessionsOf(client: string): number {
    let n = 0;
    for (const s of this.#sessions.values()) if (s.client === client) n++;
    return n;
  }

  /** `address`: the remote address (Bun's `server.requestIP`), null when unknown. */
  async handle(request: Request, address: string | null = null): Promise<Response> {
    if (!originAllowed(request.headers.get("origin"), this.#hosts)) {
      return problemResponse(
        new ServiceError(
          "forbidden",
          "Origin not allowed: the MCP endpoint accepts requests without an Origin or from this server's own host (DNS-rebinding protection)",
        ),
      );
    }
    let caller: Caller;
    try {
      const key = authenticate(this.#db, request.headers.get("authorization"));
      if (!this.#publicReads) requireScope(key, "read");
      caller = { key };
    } catch (err) {
      if (err instanceof ServiceError) return problemResponse(err);
      throw err;
    }
    const authInfo: AuthInfo = {
      token: "",
      clientId: caller.key?.id ?? "anonymous",
      scopes: caller.key?.scopes.split(",") ?? [],
      extra: { caller },
    };
    if (request.method === "GET" || request.method === "HEAD") {
      return jsonRpcError(
        405,
        -32000,
        "Method not allowed: this server sends no unprompted messages",
        {
          Allow: "POST, DELETE",
        },
      );
    }
    const client = caller.key ? `key:${caller.key.id}` : anonymousClient(address);
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.#sessions.get(id);
      if (!session) return jsonRpcError(404, -32001, "Session not found: start a new session");
      session.seen = Date.now();
      const body = await this.#message(request);
      if (body instanceof Response) return body;
      return session.transport.handleRequest(request, { authInfo, ...body });
    }
    if (request.method !== "POST") {
      return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    }
    const body = await this.#message(request);
    if (body instanceof Response) return body;
    return this.#open(request, authInfo, client, body);
  }

  /**
   * A POST's body, read here so that JSON which is not JSON-RPC is told apart from a body that
   * is not JSON: -32600 and -32700, as JSON-RPC 2.0 has them (the transport answers -32700 for
   * both). Bad Accept or Content-Type headers are left to the transport (406, 415), which checks
   * them before reading a body.
   */
  async #message(request: Request): Promise<{ parsedBody?: unknown } | Response> {
    const accept = request.headers.get("accept") ?? "";
    if (
      request.method !== "POST" ||
      !accept.includes("application/json") ||
      !accept.includes("text/event-stream") ||
      !isJsonContentType(request.headers.get("content-type"))
    ) {
      return {};
    }
    let parsedBody: unknown;
    try {
      const read = await readRequestBody(request, this.#maxBody);
      if (read.tooLarge) {
        return jsonRpcError(413, -32000, requestBodyTooLargeMessage(this.#maxBody));
      }
      parsedBody = JSON.parse(read.text);
    } catch {
      return jsonRpcError(400, -32700, "Parse error: Invalid JSON");
    }
    const wrong = notJsonRpc(parsedBody);
    if (wrong) return jsonRpcError(400, -32600, `Invalid Request: ${wrong}`);
    return { parsedBody };
  }

  async #open(
    request: Request,
    authInfo: AuthInfo,
    client: string,
    body: { parsedBody?: unknown },
  ): Promise<Response> {
    const server = mcpServer(this.#runner);
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse: true,
        maxRequestBodySize: this.#maxBody,
        onsessioninitialized: (sid) => {
          // Room is made only for a session that exists: a request that opens none evicts none.
          this.#evict(client);
          this.#sessions.set(sid, { transport, server, client, seen: Date.now() });
        },
        onsessionclosed: (sid) => {
          this.#sessions.delete(sid);
        },
      });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo, ...body });
    if (transport.sessionId === undefined) await server.close(); // not an initialize request
    return response;
  }

  /**
   * Makes room for a new session of `client`: drops sessions idle too long; then the client's own
   * least recently used while it holds its bound; then, while all together hold theirs, the least
   * recently used of whichever client holds the most (never one with fewer than another).
   */
  #evict(client: string): void {
    const now = Date.now();
    for (const [id, s] of this.#sessions) if (now - s.seen > IDLE_MS) this.#drop(id, s);
    while (this.sessionsOf(client) >= this.#limits.perClient) {
      if (!this.#dropOldest(client)) break;
    }
    while (this.#sessions.size >= this.#limits.total) {
      const counts = new Map<string, number>();
      for (const s of this.#sessions.values())
        counts.set(s.client, (counts.get(s.client) ?? 0) + 1);
      let heaviest: string | null = null;
      for (const [c, n] of counts)
        if (heaviest === null || n > (counts.get(heaviest) ?? 0)) heaviest = c;
      if (heaviest === null || !this.#dropOldest(heaviest)) break;
    }
  }

  /** Drops the least recently used session of `client`; false when it holds none. */
  #dropOldest(client: string): boolean {
    let oldest: [string, Session] | null = null;
    for (const entry of this.#sessions) {
      if (entry[1].client === client && (!oldest || entry[1].seen < oldest[1].seen)) oldest = entry;
    }
    if (!oldest) return false;
    this.#drop(...oldest);
    return true;
  }

  #drop(id: string, session: Session): void {
    this.#sessions.delete(id);
    void session.server.close();
  }

  async close(): Promise<void> {
    for (const [id, s] of [...this.#sessions]) {
      this.#sessions.delete(id);
      await s.server.close();
    }
  }
}
