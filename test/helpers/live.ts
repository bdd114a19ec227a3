/**
 * The contract suite's server: a real app on a real socket (`app.listen({port: 0})`) over the
 * test corpus, and a client whose every response is checked for `X-Webcorpus-Version`, as the
 * reference's suite did with an httpx response hook.
 */
import { expect } from "bun:test";
import type { SettingName } from "../../src/config.ts";
import { expectProblem, makeApp, type ProblemBody, type TestApp } from "./app.ts";
import { type BuiltCorpus, buildCorpus } from "./corpus.ts";

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are read by shape in assertions
export type Json = any;

export const PAGE_ID = /^pg_[0-9a-f]{16}$/;
export const JOB_ID = /^job_[0-9A-Za-z]+$/;
export const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Params = Record<string, string | number | boolean>;

export interface LiveServer {
  readonly api: TestApp;
  readonly corpus: BuiltCorpus | null;
  readonly base: string;
  request(method: string, path: string, init?: RequestInit): Promise<Response>;
  get(path: string, params?: Params, headers?: Record<string, string>): Promise<Response>;
  json(path: string, params?: Params): Promise<Json>;
  send(
    method: string,
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  close(): Promise<void>;
}

export function query(params: Params = {}): string {
  const entries = Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]);
  return entries.length ? `?${new URLSearchParams(entries)}` : "";
}

export function live(
  settings: Partial<Record<SettingName, string>> = {},
  withCorpus = true,
): LiveServer {
  const api = makeApp(settings);
  const corpus = withCorpus ? buildCorpus(api.store.write) : null;
  const server = api.app.listen({ hostname: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${server.server?.port}`;
  const request = async (method: string, path: string, init: RequestInit = {}) => {
    const r = await fetch(`${base}${path}`, { method, ...init });
    expect({ path, version: r.headers.get("x-webcorpus-version") }).toMatchObject({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    return r;
  };
  const get = (path: string, params?: Params, headers: Record<string, string> = {}) =>
    request("GET", `${path}${query(params)}`, { headers });
  return {
    api,
    corpus,
    base,
    request,
    get,
    async json(path, params) {
      const r = await get(path, params);
      const text = await r.text();
      expect({ path, status: r.status, text: r.status === 200 ? "" : text }).toMatchObject({
        status: 200,
      });
      return JSON.parse(text);
    },
    send(method, path, body, headers = api.auth) {
      return request(method, path, {
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
      });
    },
    async close() {
      await api.app.stop(true);
      api.close();
    },
  };
}

/** A problem document with this status and code, naming `param` (in errors and the detail). */
export async function problem(
  r: Response,
  status: number,
  code: string,
  param?: string,
): Promise<ProblemBody> {
  const body = await expectProblem(r, status, code);
  if (param !== undefined) {
    expect(body.errors?.map((e) => e.param)).toContain(param);
    expect(body.detail).toContain(param);
  }
  return body;
}

export function expectTime(value: unknown, nullable = false): void {
  if (nullable && value === null) return;
  expect(String(value)).toMatch(TIME);
}

export function expectScore(value: unknown, decimals = 3): void {
  expect(typeof value).toBe("number");
  const n = value as number;
  expect(n).toBeGreaterThanOrEqual(0);
  expect(n).toBeLessThanOrEqual(1);
  expect(Math.round(n * 10 ** decimals) / 10 ** decimals).toBe(n);
}

export function expectEnvelope(body: Json, sort = false): void {
  for (const key of ["data", "total", "limit", "offset", "filters", ...(sort ? ["sort"] : [])]) {
    expect(Object.keys(body)).toContain(key);
  }
  expect(Array.isArray(body.data)).toBe(true);
  expect(Number.isInteger(body.total) && body.total >= body.data.length).toBe(true);
  expect(Number.isInteger(body.limit) && Number.isInteger(body.offset)).toBe(true);
  expect(body.data.length).toBeLessThanOrEqual(body.limit);
  expect(Object.keys(body.filters).sort()).toEqual(["applied", "unrecognized"]);
  expect(Array.isArray(body.filters.unrecognized)).toBe(true);
}
