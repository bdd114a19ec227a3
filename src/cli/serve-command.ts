import { parseArgs } from "node:util";
import type { SettingName } from "../config.ts";
import { CrawlScheduler } from "../crawl/crawl-scheduler.ts";
import { counted } from "../plural.ts";
import { openSearch } from "../search/search-runtime.ts";
import { createApp } from "../server/app.ts";
import { urlFetching } from "../services/fetch-service.ts";
import { RateLimiter } from "../services/rate-limiter.ts";
import { CliError, startConfig, startStore } from "./context.ts";

/**
 * What `serve` prints once it listens: where, the data dir, the crawl workers, and the addresses a
 * newcomer wants next (Swagger UI, the MCP endpoint).
 */
export function startLine(
  version: string,
  host: string,
  port: number,
  dataDir: string,
  workers: string,
): string {
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return [
    `webcorpus ${version} on ${base} (data: ${dataDir}; ${workers})`,
    `  API docs (Swagger UI): ${base}/api/docs`,
    `  MCP endpoint:          ${base}/api/mcp`,
  ].join("\n");
}

/** The composition root: config, store (migrated), app, listen; SIGTERM/SIGINT stop it cleanly. */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "no-worker": { type: "boolean", default: false },
    },
  });
  const overrides: Partial<Record<SettingName, string>> = {};
  if (values.host !== undefined) {
    if (!values.host.trim())
      throw new CliError("error: --host: an empty address would listen on every interface");
    overrides.HOST = values.host;
  }
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) < 1 || Number(values.port) > 65535) {
      throw new CliError(
        `error: --port: ${JSON.stringify(values.port)} is not a port from 1 to 65535`,
      );
    }
    overrides.PORT = values.port;
  }
  if (values["no-worker"]) overrides.WORKER = "false";
  const config = startConfig(overrides);
  const store = startStore(config);
  const log = (message: string) => console.error(`${new Date().toISOString()} ${message}`);
  let searchRuntime: Awaited<ReturnType<typeof openSearch>>;
  try {
    searchRuntime = await openSearch(config, store.write, log);
  } catch (err) {
    store.close();
    throw new CliError(
      `error: search could not start: ${(err as Error).message}; set WEBCORPUS_MODEL_DIR to the model's directory, or WEBCORPUS_EMBEDDINGS=false for text search only`,
    );
  }
  const scheduler = config.worker
    ? new CrawlScheduler({
        config,
        db: store.write,
        indexer: searchRuntime.indexer,
        embeddingBacklog: searchRuntime.embeddingBacklog,
        log,
      })
    : null;
  const app = createApp({
    config,
    store,
    limiter: new RateLimiter(config.crawlRatePerMinute),
    embeddingBacklog: searchRuntime.embeddingBacklog,
    search: {
      registry: searchRuntime.registry,
      embedQuery: searchRuntime.embedQuery,
      indexStatus: searchRuntime.indexStatus,
    },
    // On-demand fetches are paced with the crawls: one pace per host.
    fetching: urlFetching(config, scheduler?.throttle),
    ...(scheduler ? { onCrawlQueued: () => scheduler.tick() } : {}),
  });
  try {
    app.listen({ hostname: config.host, port: config.port });
  } catch (err) {
    store.close();
    throw new CliError(
      `error: cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`,
    );
  }
  // Shards missing or behind SQLite (a crash, a deleted file) are brought level in the background.
  void searchRuntime.indexer
    .reconcile()
    .catch((err: unknown) => log(`search reconcile failed: ${String(err)}`));
  scheduler?.start();
  const workers = scheduler ? counted(scheduler.pool.size, "crawl worker") : "no crawl workers";
  console.error(startLine(config.version, config.host, config.port, config.dataDir, workers));
  const { promise, resolve } = Promise.withResolvers<number>();
  const stop = (signal: string) => {
    console.error(`${signal}: stopping`);
    // Intake stops first; running crawls finish their in-flight pages and resume on the next start.
    void app
      .stop()
      .then(() => scheduler?.stop())
      .then(() => searchRuntime.close())
      .finally(() => {
        store.close();
        resolve(0);
      });
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return promise;
}
