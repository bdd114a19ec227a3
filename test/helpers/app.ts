/** A real app on a real SQLite file in a temporary data dir, driven through `app.handle`. */

import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, type SettingName, testConfig } from "../../src/config.ts";
import { openStore, type Store } from "../../src/db/client.ts";
import { openSearch, type SearchRuntime } from "../../src/search/search-runtime.ts";
import { createApp } from "../../src/server/app.ts";
import type { AppDeps } from "../../src/server/deps.ts";
import { createKey } from "../../src/services/keys-service.ts";
import { RateLimiter } from "../../src/services/rate-limiter.ts";

export interface TestApp {
  readonly config: Config;
  readonly store: Store;
  readonly app: ReturnType<typeof createApp>;
  readonly dataDir: string;
  /** A key with read and write rights. */
  readonly key: string;
  readonly auth: Record<string, string>;
  request(method: string, path: string, init?: RequestInit): Promise<Response>;
  get(path: string, params?: Record<string, string | number | boolean>): Promise<Response>;
  postJson(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): void;
  /** Opens the search shards (and the embedder when EMBEDDINGS is on) over the stored pages. */
  attachSearch(): Promise<SearchRuntime>;
}

export function tempDir(prefix = "webcorpus-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function makeApp(settings: Partial<Record<SettingName, string>> = {}): TestApp {
  const dataDir = tempDir();
  const config = testConfig({ DATA_DIR: dataDir, ALLOW_PRIVATE_SUFFIXES: "true", ...settings });
  const store = openStore(config.databasePath);
  const deps: { -readonly [K in keyof AppDeps]: AppDeps[K] } = {
    config,
    store,
    limiter: new RateLimiter(config.crawlRatePerMinute),
    embeddingBacklog: null,
    search: null,
  };
  const app = createApp(deps);
  let runtime: SearchRuntime | null = null;
  const key = createKey(store.write, "test");
  const auth = { Authorization: `Bearer ${key}` };
  const request = (method: string, path: string, init: RequestInit = {}) =>
    app.handle(new Request(`http://localhost${path}`, { method, ...init }));
  return {
    config,
    store,
    app,
    dataDir,
    async attachSearch() {
      runtime ??= await openSearch(config, store.write, () => {});
      await runtime.indexer.reconcile();
      await runtime.indexer.idle();
      deps.search = {
        registry: runtime.registry,
        embedQuery: runtime.embedQuery,
        indexStatus: runtime.indexStatus,
      };
      deps.embeddingBacklog = runtime.embeddingBacklog;
      return runtime;
    },
    key,
    auth,
    request,
    get(path, params) {
      const query = params
        ? `?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`
        : "";
      return request("GET", `${path}${query}`);
    },
    postJson(path, body, headers = auth) {
      return request("POST", path, {
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", ...headers },
      });
    },
    close() {
      const done = () => {
        store.close();
        rmSync(dataDir, { recursive: true, force: true });
      };
      // With search attached, the shards are snapshotted and the embedder stopped first.
      if (runtime) void runtime.close().finally(done);
      else done();
    },
  };
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: { param?: string; field?: string; message: string }[];
  [key: string]: unknown;
}

/** Asserts an RFC 9457 problem document with this status and code, and returns it. */
export async function expectProblem(
  response: Response,
  status: number,
  code: string,
): Promise<ProblemBody> {
  const text = await response.text();
  expect({ status: response.status, text }).toMatchObject({ status });
  expect(response.headers.get("content-type")).toStartWith("application/problem+json");
  const body = JSON.parse(text) as ProblemBody;
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(body.type).toBe(`urn:webcorpus:error:${code}`);
  expect(body.title.length).toBeGreaterThan(0);
  expect(body.detail.length).toBeGreaterThan(0);
  expect(text).not.toContain("    at ");
  expect(text).not.toContain("node_modules");
  return body;
}
