import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ConfigError,
  closestSetting,
  loadConfig,
  parseDotenv,
  SETTINGS,
  unknownSettings,
} from "../../src/config.ts";

const load = (env: Record<string, string>) => loadConfig(env, { dotenvPath: "/nonexistent/.env" });

function errorsOf(env: Record<string, string>): string[] {
  try {
    load(env);
  } catch (err) {
    if (err instanceof ConfigError) return [...err.lines];
    throw err;
  }
  return [];
}

test("the defaults are the reference's", () => {
  const { config, warnings } = load({});
  expect(warnings).toEqual([]);
  expect(config).toMatchObject({
    host: "127.0.0.1",
    port: 8000,
    publicReads: true,
    crawlDelayS: 0.25,
    hostConcurrency: 4,
    maxConcurrency: 32,
    maxBodyBytes: 10 * 1024 * 1024,
    maxBudget: 10_000,
    defaultBudget: 500,
    contentLimit: 100,
    searchLimit: 50,
    bundleLimit: 500,
    maxBodyRequestBytes: 16_384,
    maxQChars: 1000,
    crawlRatePerMinute: 30,
    fetchRatePerMinute: 60,
    embeddings: true,
    workerJobs: 4,
    jobLeaseS: 60,
  });
  expect(config.userAgent).toStartWith("webcorpus/");
  expect(config.databasePath).toEndWith("/data/webcorpus.db");
  expect(Object.isFrozen(config)).toBe(true);
});

test("values are converted and bad ones named, all of them at once", () => {
  expect(
    load({ WEBCORPUS_PORT: "8080", WEBCORPUS_PUBLIC_READS: "false", WEBCORPUS_CRAWL_DELAY_S: "0" })
      .config,
  ).toMatchObject({
    port: 8080,
    publicReads: false,
    crawlDelayS: 0,
  });
  expect(
    errorsOf({
      WEBCORPUS_PORT: "eighty",
      WEBCORPUS_WORKER_JOBS: "0",
      WEBCORPUS_EMBEDDINGS: "maybe",
    }),
  ).toEqual([
    'WEBCORPUS_PORT: must be an integer from 1 to 65535 (got "eighty")',
    'WEBCORPUS_EMBEDDINGS: must be true or false (got "maybe")',
    'WEBCORPUS_WORKER_JOBS: must be an integer from 1 to 64 (got "0")',
  ]);
});

describe("values that would fail later are refused at start", () => {
  test.each([
    [{ WEBCORPUS_PORT: "70000" }, "WEBCORPUS_PORT"],
    [{ WEBCORPUS_CRAWL_RATE_PER_MINUTE: "0" }, "WEBCORPUS_CRAWL_RATE_PER_MINUTE"],
    [{ WEBCORPUS_EMBED_BATCH: "0" }, "WEBCORPUS_EMBED_BATCH"],
    [{ WEBCORPUS_CONNECT_TIMEOUT_S: "0" }, "WEBCORPUS_CONNECT_TIMEOUT_S"],
    [{ WEBCORPUS_CONNECT_TO: "garbage" }, "expected HOST:PORT:ADDR:PORT"],
    [{ WEBCORPUS_CONNECT_TO: "a.org:99999:127.0.0.1:80" }, "bad port"],
    [{ WEBCORPUS_ALLOW_NETWORKS: "10.0.0.0/33" }, "WEBCORPUS_ALLOW_NETWORKS"],
    [
      { WEBCORPUS_DEFAULT_BUDGET: "600", WEBCORPUS_MAX_BUDGET: "500" },
      "above WEBCORPUS_MAX_BUDGET",
    ],
    [{ WEBCORPUS_DATA_DIR: "" }, "WEBCORPUS_DATA_DIR: must not be empty"],
    [{ WEBCORPUS_DATA_DIR: import.meta.path }, "is not a directory"],
    [{ WEBCORPUS_HOST: " " }, "WEBCORPUS_HOST"],
    [{ WEBCORPUS_DATABASE_URL: "postgresql://u@h/db" }, "PostgreSQL backend is not built yet"],
    [{ WEBCORPUS_DATABASE_URL: "mysql://x" }, "must be sqlite:///PATH"],
    [{ WEBCORPUS_EMBED_VARIANT: "int4" }, "must be one of int8, fp32"],
  ])("%j", (env, message) => {
    expect(errorsOf(env).join("\n")).toContain(message);
  });
});

test("network settings are parsed", () => {
  const { config } = load({
    WEBCORPUS_CONNECT_TO: "docs.python.org:80:127.0.0.1:8080, ::[::1]:9000",
    WEBCORPUS_ALLOW_NETWORKS: "10.0.0.0/8,fd00::/8,192.168.1.7",
  });
  expect(config.connectTo).toEqual([
    { host: "docs.python.org", port: 80, addr: "127.0.0.1", addrPort: 8080 },
    { host: null, port: null, addr: "::1", addrPort: 9000 },
  ]);
  expect(config.allowNetworks.map((n) => [n.version, n.prefix])).toEqual([
    [4, 8],
    [6, 8],
    [4, 32],
  ]);
});

test("a misspelled setting is named with the closest one", () => {
  expect(
    unknownSettings(
      { WEBCORPUS_PUBLICREADS: "false", PATH: "/bin", WEBCORPUS_TEST_SITES: "x" },
      {},
    ),
  ).toEqual([
    "WEBCORPUS_PUBLICREADS (environment) is not a setting and is ignored; did you mean WEBCORPUS_PUBLIC_READS?",
  ]);
  expect(unknownSettings({}, { WEBCORPUS_CRAWL_DELAY: "1" })).toEqual([
    "WEBCORPUS_CRAWL_DELAY (.env) is not a setting and is ignored; did you mean WEBCORPUS_CRAWL_DELAY_S?",
  ]);
  expect(closestSetting("WEBCORPUS_ZZZZZZZZZZZZZZZZZZZZZZZZ")).toBeNull();
});

test(".env lines are read: quotes, comments, export", () => {
  expect(
    parseDotenv(
      '# c\nexport WEBCORPUS_PORT=9000\nWEBCORPUS_HOST="0.0.0.0" \nA=b # note\n\nbroken line',
    ),
  ).toEqual({
    WEBCORPUS_PORT: "9000",
    WEBCORPUS_HOST: "0.0.0.0",
    A: "b",
  });
});

test("docs/configuration.md's settings table lists every setting, and no other", () => {
  const doc = readFileSync(join(import.meta.dir, "../../docs/configuration.md"), "utf8");
  const section = doc.slice(doc.indexOf("# Configuration"), doc.indexOf("\n## "));
  const rows = section.split("\n").filter((line) => line.startsWith("| `WEBCORPUS_"));
  const named = new Set(
    rows.flatMap((row) =>
      [...(row.split(" | ")[0] ?? "").matchAll(/`WEBCORPUS_([A-Z_]+)`/g)].map((m) => m[1]),
    ),
  );
  expect([...named].sort()).toEqual(Object.keys(SETTINGS).sort());
});
