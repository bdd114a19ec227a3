/**
 * Every `WEBCORPUS_*` setting, typed and checked once at start. This module is the only reader of
 * the environment: a bad value stops the command with one line naming the setting, and a
 * `WEBCORPUS_` name that is no setting gets a warning naming the closest one.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { type ConnectToRule, type IpNetwork, parseConnectTo, parseNetworks } from "./crawl/ip.ts";
import { modelFiles } from "./search/model-files.ts";
import { VERSION } from "./version.ts";

type Kind =
  | { type: "int"; min: number; max?: number }
  | { type: "float"; min: number; exclusiveMin?: boolean; max?: number }
  | { type: "bool" }
  | { type: "string"; nonEmpty?: boolean }
  | { type: "list" }
  | { type: "enum"; values: readonly string[] };

interface Spec {
  readonly kind: Kind;
  readonly default: string;
  readonly doc: string;
}

const int = (min: number, max?: number): Kind =>
  max === undefined ? { type: "int", min } : { type: "int", min, max };

/**
 * The settings table: the name after `WEBCORPUS_`, its kind, default (as text, the way the
 * environment gives it) and meaning. The settings table of docs/configuration.md is checked
 * against it.
 */
export const SETTINGS = {
  DATA_DIR: { kind: { type: "string", nonEmpty: true }, default: "./data", doc: "data dir" },
  DATABASE_URL: { kind: { type: "string" }, default: "", doc: "sqlite:///PATH" },
  HOST: { kind: { type: "string", nonEmpty: true }, default: "127.0.0.1", doc: "listen address" },
  PORT: { kind: int(1, 65535), default: "8000", doc: "listen port" },
  PUBLIC_READS: { kind: { type: "bool" }, default: "true", doc: "reads need no key" },
  ALLOW_NETWORKS: { kind: { type: "list" }, default: "", doc: "CIDRs past the SSRF guard" },
  CONNECT_TO: { kind: { type: "list" }, default: "", doc: "HOST:PORT:ADDR:PORT rules" },
  CONNECT_TO_ONLY: { kind: { type: "bool" }, default: "false", doc: "never ask DNS" },
  ALLOW_PRIVATE_SUFFIXES: { kind: { type: "bool" }, default: "false", doc: ".test targets" },
  USER_AGENT: {
    kind: { type: "string", nonEmpty: true },
    default: `webcorpus/${VERSION} (+https://github.com/webcorpus/webcorpus)`,
    doc: "crawler user agent",
  },
  CRAWL_DELAY_S: { kind: { type: "float", min: 0 }, default: "0.25", doc: "per-host gap" },
  HOST_CONCURRENCY: { kind: int(1), default: "4", doc: "in flight per host" },
  ADAPTIVE_DELAY: { kind: { type: "bool" }, default: "true", doc: "AutoThrottle" },
  MAX_CONCURRENCY: { kind: int(1), default: "32", doc: "in flight per job" },
  CONNECT_TIMEOUT_S: {
    kind: { type: "float", min: 0, exclusiveMin: true },
    default: "10",
    doc: "connect timeout",
  },
  READ_TIMEOUT_S: {
    kind: { type: "float", min: 0, exclusiveMin: true },
    default: "30",
    doc: "read timeout",
  },
  MAX_BODY_BYTES: { kind: int(1024), default: "10485760", doc: "body cap" },
  MAX_RETRIES: { kind: int(0), default: "2", doc: "retries" },
  MAX_RETRY_AFTER_S: { kind: { type: "float", min: 0 }, default: "60", doc: "Retry-After cap" },
  MAX_REDIRECTS: { kind: int(0), default: "10", doc: "redirect hops" },
  MAX_SITEMAPS: { kind: int(0), default: "50", doc: "sitemaps per crawl" },
  MAX_SITEMAP_URLS: { kind: int(0), default: "50000", doc: "URLs per sitemap" },
  MAX_DEPTH: { kind: int(0), default: "30", doc: "link depth" },
  FRONTIER_ORDER: {
    kind: { type: "enum", values: ["value", "bfs"] },
    default: "value",
    doc: "frontier order",
  },
  MAX_URL_LENGTH: { kind: int(16), default: "1024", doc: "URL length" },
  MAX_QUERY_PARAMS: { kind: int(0), default: "8", doc: "query params" },
  MAX_REPEATED_SEGMENTS: { kind: int(1), default: "3", doc: "repeated path segments" },
  MAX_QUERY_VARIANTS_PER_PATH: { kind: int(1), default: "50", doc: "query variants" },
  MAX_BUDGET: { kind: int(1), default: "10000", doc: "budget bound" },
  DEFAULT_BUDGET: { kind: int(1), default: "500", doc: "default budget" },
  CONTENT_LIMIT: { kind: int(1), default: "100", doc: "content page size" },
  SEARCH_LIMIT: { kind: int(1), default: "50", doc: "search page size" },
  BUNDLE_LIMIT: { kind: int(1), default: "500", doc: "bundle page size" },
  MAX_BODY_REQUEST_BYTES: { kind: int(1024), default: "16384", doc: "request body" },
  MAX_Q_CHARS: { kind: int(1), default: "1000", doc: "longest q" },
  CRAWL_RATE_PER_MINUTE: { kind: int(1), default: "30", doc: "crawl starts per key" },
  FETCH_RATE_PER_MINUTE: { kind: int(1), default: "60", doc: "URL fetches per key" },
  EMBEDDINGS: { kind: { type: "bool" }, default: "true", doc: "vector search" },
  MODEL_DIR: { kind: { type: "string" }, default: "", doc: "model files" },
  EMBED_VARIANT: { kind: { type: "enum", values: ["int8", "fp32"] }, default: "int8", doc: "" },
  EMBED_BATCH: { kind: int(1), default: "64", doc: "chunks per round" },
  EMBED_THREADS: { kind: int(0, 64), default: "0", doc: "embedding lanes" },
  INDEX_PAGE_VECTORS: {
    kind: { type: "enum", values: ["policy", "all"] },
    default: "policy",
    doc: "vectors of index pages",
  },
  SHARD_MEMORY_MB: { kind: int(16), default: "2048", doc: "loaded index shards" },
  CHROMIUM_PATH: { kind: { type: "string" }, default: "", doc: "browser" },
  SCREENSHOT_TIMEOUT_S: {
    kind: { type: "float", min: 0, exclusiveMin: true },
    default: "20",
    doc: "screenshot wait",
  },
  RENDER_CONTEXTS: { kind: int(1, 16), default: "2", doc: "pages rendered at once" },
  RENDER_TIMEOUT_S: {
    kind: { type: "float", min: 0, exclusiveMin: true },
    default: "15",
    doc: "render wait",
  },
  WORKER: { kind: { type: "bool" }, default: "true", doc: "serve crawls too" },
  WORKER_JOBS: { kind: int(1, 64), default: "4", doc: "jobs at once" },
  API_THREADS: { kind: int(0, 256), default: "0", doc: "no effect on Bun" },
  WORKER_PROCESSES: { kind: int(0, 64), default: "0", doc: "crawl worker threads" },
  PROCESSING_TIMEOUT_S: {
    kind: { type: "float", min: 0, exclusiveMin: true },
    default: "120",
    doc: "per-page processing",
  },
  JOB_LEASE_S: { kind: { type: "float", min: 5 }, default: "60", doc: "job lease" },
} as const satisfies Record<string, Spec>;

export type SettingName = keyof typeof SETTINGS;

/** The resolved configuration, frozen once made. */
export interface Config {
  readonly version: string;
  readonly dataDir: string;
  readonly databasePath: string;
  readonly host: string;
  readonly port: number;
  readonly publicReads: boolean;
  readonly allowNetworks: readonly IpNetwork[];
  readonly connectTo: readonly ConnectToRule[];
  readonly connectToOnly: boolean;
  readonly allowPrivateSuffixes: boolean;
  readonly userAgent: string;
  readonly crawlDelayS: number;
  readonly hostConcurrency: number;
  readonly adaptiveDelay: boolean;
  readonly maxConcurrency: number;
  readonly connectTimeoutS: number;
  readonly readTimeoutS: number;
  readonly maxBodyBytes: number;
  readonly maxRetries: number;
  readonly maxRetryAfterS: number;
  readonly maxRedirects: number;
  readonly maxSitemaps: number;
  readonly maxSitemapUrls: number;
  readonly maxDepth: number;
  /** `value`: expected value (priority.ts); `bfs`: breadth-first, for benchmarks. */
  readonly frontierOrder: "value" | "bfs";
  readonly maxUrlLength: number;
  readonly maxQueryParams: number;
  readonly maxRepeatedSegments: number;
  readonly maxQueryVariantsPerPath: number;
  readonly maxBudget: number;
  readonly defaultBudget: number;
  readonly contentLimit: number;
  readonly searchLimit: number;
  readonly bundleLimit: number;
  readonly maxBodyRequestBytes: number;
  readonly maxQChars: number;
  readonly crawlRatePerMinute: number;
  readonly fetchRatePerMinute: number;
  readonly embeddings: boolean;
  readonly modelDir: string;
  readonly embedVariant: "int8" | "fp32";
  readonly embedBatch: number;
  readonly embedThreads: number;
  /** `policy`: generated index pages keep vectors for their first chunks only (vector-policy.ts). */
  readonly indexPageVectors: "policy" | "all";
  /** Estimated memory the loaded index shards may take before the least used are unloaded. */
  readonly shardMemoryMb: number;
  readonly chromiumPath: string | null;
  readonly screenshotTimeoutS: number;
  /** Pages a job renders in Chromium at once, and the longest a render may take. */
  readonly renderContexts: number;
  readonly renderTimeoutS: number;
  readonly worker: boolean;
  readonly workerJobs: number;
  readonly workerProcesses: number;
  readonly processingTimeoutS: number;
  readonly jobLeaseS: number;
}

/** A setting that cannot be used; the message is the one line the command prints. */
export class ConfigError extends Error {
  readonly lines: readonly string[];
  /** Warnings about unknown names, found before the errors. */
  readonly warnings: readonly string[];
  constructor(lines: readonly string[], warnings: readonly string[] = []) {
    super(lines.join("\n"));
    this.name = "ConfigError";
    this.lines = lines;
    this.warnings = warnings;
  }
}

const TRUE = new Set(["1", "true", "yes", "on"]);
const FALSE = new Set(["0", "false", "no", "off"]);

type Raw = Partial<Record<string, string>>;

/** Turns one raw value into its typed value, or a message saying what it must be. */
function convert(kind: Kind, raw: string): { value: unknown } | { error: string } {
  const text = raw.trim();
  switch (kind.type) {
    case "int": {
      const top = kind.max ?? Number.MAX_SAFE_INTEGER;
      const range =
        kind.max === undefined ? `of at least ${kind.min}` : `from ${kind.min} to ${top}`;
      if (!/^[+-]?\d+$/.test(text)) return { error: `must be an integer ${range}` };
      const n = Number(text);
      if (!Number.isSafeInteger(n) || n < kind.min || n > top) {
        return { error: `must be an integer ${range}` };
      }
      return { value: n };
    }
    case "float": {
      const n = text === "" ? Number.NaN : Number(text);
      const low = kind.exclusiveMin ? `above ${kind.min}` : `of at least ${kind.min}`;
      if (!Number.isFinite(n) || (kind.exclusiveMin ? n <= kind.min : n < kind.min)) {
        return { error: `must be a number ${low}` };
      }
      if (kind.max !== undefined && n > kind.max) {
        return { error: `must be a number of at most ${kind.max}` };
      }
      return { value: n };
    }
    case "bool": {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) return { value: true };
      if (FALSE.has(lower)) return { value: false };
      return { error: "must be true or false" };
    }
    case "string":
      if (kind.nonEmpty && text === "") return { error: "must not be empty" };
      return { value: text };
    case "list":
      return {
        value: text
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean),
      };
    case "enum":
      if (!kind.values.includes(text)) return { error: `must be one of ${kind.values.join(", ")}` };
      return { value: text };
  }
}

/** Parses `.env` lines (`NAME=value`, optional quotes, `#` comments) for the names it sets. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m?.[1]) continue;
    let value = m[2] ?? "";
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2] ?? "";
    else value = value.replace(/\s+#.*$/, "");
    out[m[1]] = value;
  }
  return out;
}

/** Levenshtein distance, for the closest setting to a misspelled name. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, sub));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

export function closestSetting(name: string): string | null {
  let best: string | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const known of Object.keys(SETTINGS)) {
    const full = `WEBCORPUS_${known}`;
    const d = distance(name.toUpperCase(), full);
    if (d < bestScore) {
      bestScore = d;
      best = full;
    }
  }
  // As difflib's 0.6 cutoff: a name that shares too little is no hint.
  return best !== null && bestScore <= Math.max(3, Math.floor(best.length * 0.4)) ? best : null;
}

/** Names with the prefix that belong to the test and bench scripts, not to the service. */
const NOT_SETTINGS = ["WEBCORPUS_TEST_", "WEBCORPUS_BENCH_"];

/** One warning per `WEBCORPUS_` name in the environment or `.env` that no setting has. */
export function unknownSettings(env: Raw, dotenv: Raw): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const [name, where] of [
    ...Object.keys(dotenv).map((n) => [n, ".env"] as const),
    ...Object.keys(env).map((n) => [n, "environment"] as const),
  ]) {
    const upper = name.toUpperCase();
    if (!upper.startsWith("WEBCORPUS_") || seen.has(name)) continue;
    seen.add(name);
    if (upper.slice("WEBCORPUS_".length) in SETTINGS && upper === name) continue;
    if (NOT_SETTINGS.some((prefix) => upper.startsWith(prefix))) continue;
    const close = closestSetting(upper);
    out.push(
      `${name} (${where}) is not a setting and is ignored${close ? `; did you mean ${close}?` : ""}`,
    );
  }
  return out;
}

export interface LoadedConfig {
  readonly config: Config;
  readonly warnings: readonly string[];
}

/**
 * The configuration from `env` (the environment; Bun has already merged `.env` into it when it
 * started) with `overrides` (command-line flags) on top. Throws ConfigError listing every bad
 * value, one line each.
 */
export function loadConfig(
  env: Raw = Bun.env,
  options: { overrides?: Partial<Record<SettingName, string>>; dotenvPath?: string } = {},
): LoadedConfig {
  const errors: string[] = [];
  let dotenv: Raw = {};
  const dotenvPath = options.dotenvPath ?? ".env";
  if (existsSync(dotenvPath)) {
    const bytes = readFileSync(dotenvPath);
    try {
      dotenv = parseDotenv(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new ConfigError([`${dotenvPath} is not UTF-8 text`]);
    }
  }
  const warnings = unknownSettings(env, dotenv);
  const values = {} as Record<SettingName, unknown>;
  for (const [name, spec] of Object.entries(SETTINGS) as [SettingName, Spec][]) {
    const given =
      options.overrides?.[name] ?? env[`WEBCORPUS_${name}`] ?? dotenv[`WEBCORPUS_${name}`];
    const raw = given ?? spec.default;
    const result = convert(spec.kind, raw);
    if ("error" in result) {
      errors.push(`WEBCORPUS_${name}: ${result.error} (got ${JSON.stringify(raw)})`);
      continue;
    }
    values[name] = result.value;
  }
  if (env.WEBCORPUS_API_THREADS !== undefined) {
    warnings.push(
      "WEBCORPUS_API_THREADS has no effect on the Bun build: requests are answered on one event loop and CPU work runs in worker threads",
    );
  }
  const get = <T>(name: SettingName): T => values[name] as T;
  let allowNetworks: IpNetwork[] = [];
  let connectTo: ConnectToRule[] = [];
  try {
    allowNetworks = parseNetworks(get<string[]>("ALLOW_NETWORKS") ?? []);
  } catch (err) {
    errors.push(`WEBCORPUS_ALLOW_NETWORKS: ${(err as Error).message}`);
  }
  try {
    connectTo = parseConnectTo(get<string[]>("CONNECT_TO") ?? []);
  } catch (err) {
    errors.push(`WEBCORPUS_CONNECT_TO: ${(err as Error).message}`);
  }
  const dataDir = get<string>("DATA_DIR");
  if (dataDir !== undefined && existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
    errors.push(`WEBCORPUS_DATA_DIR: ${dataDir} exists and is not a directory`);
  }
  const databaseUrl = get<string>("DATABASE_URL") ?? "";
  let databasePath = resolve(dataDir ?? "./data", "webcorpus.db");
  if (databaseUrl.startsWith("sqlite:///")) {
    databasePath = resolve(databaseUrl.slice("sqlite:///".length));
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    errors.push(
      "WEBCORPUS_DATABASE_URL: the PostgreSQL backend is not built yet; leave it unset for the embedded SQLite database in WEBCORPUS_DATA_DIR",
    );
  } else if (databaseUrl !== "") {
    errors.push(
      "WEBCORPUS_DATABASE_URL: must be sqlite:///PATH (or unset: the SQLite file in the data dir)",
    );
  }
  const maxBudget = get<number>("MAX_BUDGET");
  const defaultBudget = get<number>("DEFAULT_BUDGET");
  if (maxBudget !== undefined && defaultBudget !== undefined && defaultBudget > maxBudget) {
    errors.push(
      `WEBCORPUS_DEFAULT_BUDGET: ${defaultBudget} is above WEBCORPUS_MAX_BUDGET (${maxBudget})`,
    );
  }
  const modelDir = get<string>("MODEL_DIR");
  const modelRoot = modelDir ? resolve(modelDir) : resolve(dataDir ?? "./data", "models");
  // Only the int8 graphs ship; the crawl workers' tokenizer and the embedder need fp32's file too.
  if (get<string>("EMBED_VARIANT") === "fp32") {
    try {
      modelFiles(modelRoot, "fp32");
    } catch (err) {
      errors.push(
        `WEBCORPUS_EMBED_VARIANT: fp32 needs model-fp32.onnx, which is not shipped (${(err as Error).message}); leave it unset for int8, the shipped model`,
      );
    }
  }
  if (errors.length > 0) throw new ConfigError(errors, warnings);

  const chromium = get<string>("CHROMIUM_PATH");
  const config: Config = {
    version: VERSION,
    dataDir: resolve(dataDir),
    databasePath,
    host: get("HOST"),
    port: get("PORT"),
    publicReads: get("PUBLIC_READS"),
    allowNetworks,
    connectTo,
    connectToOnly: get("CONNECT_TO_ONLY"),
    allowPrivateSuffixes: get("ALLOW_PRIVATE_SUFFIXES"),
    userAgent: get("USER_AGENT"),
    crawlDelayS: get("CRAWL_DELAY_S"),
    hostConcurrency: get("HOST_CONCURRENCY"),
    adaptiveDelay: get("ADAPTIVE_DELAY"),
    maxConcurrency: get("MAX_CONCURRENCY"),
    connectTimeoutS: get("CONNECT_TIMEOUT_S"),
    readTimeoutS: get("READ_TIMEOUT_S"),
    maxBodyBytes: get("MAX_BODY_BYTES"),
    maxRetries: get("MAX_RETRIES"),
    maxRetryAfterS: get("MAX_RETRY_AFTER_S"),
    maxRedirects: get("MAX_REDIRECTS"),
    maxSitemaps: get("MAX_SITEMAPS"),
    maxSitemapUrls: get("MAX_SITEMAP_URLS"),
    maxDepth: get("MAX_DEPTH"),
    frontierOrder: get("FRONTIER_ORDER"),
    maxUrlLength: get("MAX_URL_LENGTH"),
    maxQueryParams: get("MAX_QUERY_PARAMS"),
    maxRepeatedSegments: get("MAX_REPEATED_SEGMENTS"),
    maxQueryVariantsPerPath: get("MAX_QUERY_VARIANTS_PER_PATH"),
    maxBudget,
    defaultBudget,
    contentLimit: get("CONTENT_LIMIT"),
    searchLimit: get("SEARCH_LIMIT"),
    bundleLimit: get("BUNDLE_LIMIT"),
    maxBodyRequestBytes: get("MAX_BODY_REQUEST_BYTES"),
    maxQChars: get("MAX_Q_CHARS"),
    crawlRatePerMinute: get("CRAWL_RATE_PER_MINUTE"),
    fetchRatePerMinute: get("FETCH_RATE_PER_MINUTE"),
    embeddings: get("EMBEDDINGS"),
    modelDir: modelRoot,
    embedVariant: get("EMBED_VARIANT"),
    embedBatch: get("EMBED_BATCH"),
    embedThreads: get("EMBED_THREADS"),
    indexPageVectors: get("INDEX_PAGE_VECTORS"),
    shardMemoryMb: get("SHARD_MEMORY_MB"),
    chromiumPath: chromium ? chromium : null,
    screenshotTimeoutS: get("SCREENSHOT_TIMEOUT_S"),
    renderContexts: get("RENDER_CONTEXTS"),
    renderTimeoutS: get("RENDER_TIMEOUT_S"),
    worker: get("WORKER"),
    workerJobs: get("WORKER_JOBS"),
    workerProcesses: get("WORKER_PROCESSES"),
    processingTimeoutS: get("PROCESSING_TIMEOUT_S"),
    jobLeaseS: get("JOB_LEASE_S"),
  };
  return { config: Object.freeze(config), warnings };
}

/** A configuration for tests and benchmarks: the defaults with `settings` on top. */
export function testConfig(settings: Partial<Record<SettingName, string>> = {}): Config {
  return loadConfig({}, { overrides: settings, dotenvPath: "/nonexistent/.env" }).config;
}

/**
 * The crawler connects to the address its SSRF guard checked, never through a proxy: Bun's fetch
 * would otherwise follow HTTP_PROXY/HTTPS_PROXY from the environment, and a proxy connects
 * wherever it likes (internal networks included). Called by the crawl scheduler and workers.
 */
export function disableProxies(): void {
  for (const name of [
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
  ]) {
    delete process.env[name];
  }
}
