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
 * - Sessions (`Mcp-Session-Id`) live in memory, at most MAX_SESSIONS, dropped after IDLE_MS
 *   without a request; an unknown session id is a 404 (the client starts a new session).
 * - Answers are JSON, never a held-open stream: GET (the server-to-client stream, unused here
 *   because the server sends nothing unprompted) is a 405, as the spec allows.
 */
import { hostname } from "node:os";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { problemResponse } from "../server/problems.ts";
import { ServiceError } from "../services/errors.ts";
import { authenticate, requireScope } from "../services/keys-service.ts";
import { type Caller, mcpServer, type ToolRunner } from "./server.ts";

export const MCP_PATH = "/api/mcp";
const MAX_SESSIONS = 1000;
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
  seen: number;
}

export class McpEndpoint {
  readonly #sessions = new Map<string, Session>();
  readonly #hosts: ReadonlySet<string>;
  readonly #runner: ToolRunner;
  readonly #db: Db;
  readonly #publicReads: boolean;
  readonly #maxBody: number;

  constructor(config: Config, db: Db, runner: ToolRunner) {
    this.#hosts = allowedOriginHosts(config);
    this.#runner = runner;
    this.#db = db;
    this.#publicReads = config.publicReads;
    this.#maxBody = Math.max(config.maxBodyRequestBytes, 64 * 1024);
  }

  get sessions(): number {
    return this.#sessions.size;
  }

  async handle(request: Request): Promise<Response> {
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
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.#sessions.get(id);
      if (!session) return jsonRpcError(404, -32001, "Session not found: start a new session");
      session.seen = Date.now();
      return session.transport.handleRequest(request, { authInfo });
    }
    if (request.method !== "POST") {
      return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    }
    return this.#open(request, authInfo);
  }

  async #open(request: Request, authInfo: AuthInfo): Promise<Response> {
    this.#evict();
    const server = mcpServer(this.#runner);
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse: true,
        maxRequestBodySize: this.#maxBody,
        onsessioninitialized: (sid) => {
          this.#sessions.set(sid, { transport, server, seen: Date.now() });
        },
        onsessionclosed: (sid) => {
          this.#sessions.delete(sid);
        },
      });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    if (transport.sessionId === undefined) await server.close(); // not an initialize request
    return response;
  }

  /** Drops sessions idle too long, and the least recently used past the cap. */
  #evict(): void {
    const now = Date.now();
    for (const [id, s] of this.#sessions) if (now - s.seen > IDLE_MS) this.#drop(id, s);
    while (this.#sessions.size >= MAX_SESSIONS) {
      let oldest: [string, Session] | null = null;
      for (const entry of this.#sessions)
        if (!oldest || entry[1].seen < oldest[1].seen) oldest = entry;
      if (!oldest) break;
      this.#drop(...oldest);
    }
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
