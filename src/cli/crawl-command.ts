import { parseArgs } from "node:util";
import { CrawlScheduler } from "../crawl/crawl-scheduler.ts";
import { RENDER_MODES, type RenderMode } from "../crawl/render/detector.ts";
import { requestCancel } from "../db/jobs-repo.ts";
import { counted } from "../plural.ts";
import { openSearch } from "../search/search-runtime.ts";
import { crawlRequest, startCrawl } from "../services/crawl-service.ts";
import { ServiceError } from "../services/errors.ts";
import { type JobView, jobView, requireJob } from "../services/jobs-service.ts";
import { CliError, startConfig, startStore } from "./context.ts";
import { CRAWL_USAGE } from "./usage.ts";

const FINAL = new Set(["completed", "partial", "failed", "cancelled"]);

function renderOption(value: string): RenderMode {
  const mode = RENDER_MODES.find((m) => m === value);
  if (mode === undefined)
    throw new CliError(`error: --render: must be one of ${RENDER_MODES.join(", ")}`);
  return mode;
}

/** A duration for the progress line: seconds, then minutes, then hours. */
export function shortDuration(s: number): string {
  if (s < 100) return `${Math.round(s)}s`;
  if (s < 6000) return `${Math.round(s / 60)}m`;
  return `${Math.round(s / 3600)}h`;
}

export function progressLine(view: JobView): string {
  const p = view.progress;
  const eta =
    p.eta && p.phase !== "done"
      ? `  eta ${shortDuration(p.eta.low_s)}-${shortDuration(p.eta.high_s)}`
      : "";
  // Both rates: pages fetched, and pages searchable by vector (every chunk embedded).
  const embedding =
    p.embedding_backlog === null
      ? ""
      : `  ${(p.searchable_per_min ?? 0).toFixed(1)} searchable/min` +
        `  backlog ${counted(p.embedding_backlog, "chunk")} (${(p.chunks_per_s ?? 0).toFixed(1)}/s)`;
  return (
    `${view.state} ${p.phase}  indexed ${p.indexed}  pending ${p.pending}  ` +
    `discovered ${p.discovered}  ${p.pages_per_min.toFixed(1)} pages/min${embedding}${eta}`
  );
}

/**
 * Redraws the live line in place: back to its start, the line cut to the terminal's width (a
 * wrapped line could not be redrawn), then clear-to-end, so nothing of a longer line before it
 * is left (`eta 80-128s` after `eta 100-1280s` read `eta 80-128ss`).
 */
export function liveLine(line: string, columns?: number): string {
  const fit = columns && columns > 1 ? line.slice(0, columns - 1) : line;
  return `\r${fit}\x1b[K`;
}

/**
 * Crawls one domain from the shell with a live progress line, then prints a summary. Ctrl-C
 * cancels the job and waits until it has ended `cancelled`; a second Ctrl-C leaves at once, the
 * job handed back for `webcorpus serve` to resume and end.
 */
export async function crawlCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      budget: { type: "string" },
      refresh: { type: "boolean", default: false },
      force: { type: "boolean", default: false },
      shots: { type: "string", default: "0" },
      scope: { type: "string" },
      include: { type: "string", multiple: true },
      exclude: { type: "string", multiple: true },
      start: { type: "string", multiple: true },
      render: { type: "string" },
      json: { type: "boolean", default: false },
    },
    allowPositionals: true,
  });
  const [domain, ...extra] = positionals;
  if (!domain || extra.length > 0) throw new CliError(CRAWL_USAGE);
  const int = (name: string, value: string) => {
    if (!/^\d+$/.test(value))
      throw new CliError(`error: --${name}: ${JSON.stringify(value)} is not a whole number`);
    return Number(value);
  };
  const config = startConfig();
  const store = startStore(config);
  const db = store.write;
  let jobId: string;
  try {
    const request = crawlRequest(config, {
      domain,
      budget: values.budget === undefined ? config.defaultBudget : int("budget", values.budget),
      refresh: values.refresh,
      force: values.force,
      shots: int("shots", values.shots),
      ...(values.scope === undefined ? {} : { scope: values.scope }),
      ...(values.include ? { include: values.include } : {}),
      ...(values.exclude ? { exclude: values.exclude } : {}),
      ...(values.start ? { start: values.start } : {}),
      ...(values.render === undefined ? {} : { render: renderOption(values.render) }),
    });
    if (request.budget < 1 || request.budget > config.maxBudget) {
      throw new CliError(`error: --budget: must be from 1 to ${config.maxBudget}`);
    }
    jobId = startCrawl(db, request, null, null).id;
  } catch (err) {
    store.close();
    if (err instanceof ServiceError) throw new CliError(`error: ${err.message}`);
    throw err;
  }
  console.error(`${jobId} ${domain}`);
  const searchRuntime = await openSearch(config, db, () => {}, { queries: false });
  const scheduler = new CrawlScheduler(
    {
      config,
      db,
      indexer: searchRuntime.indexer,
      embeddingBacklog: searchRuntime.embeddingBacklog,
      log: () => {},
    },
    { only: jobId },
  );
  scheduler.start();
  let interrupted = false;
  const view = () =>
    jobView(
      { db: store.read, embeddingBacklog: searchRuntime.embeddingBacklog },
      requireJob(store.read, jobId),
    );
  const onSigint = () => {
    if (interrupted) {
      process.stderr.write("\nleaving; the job is handed back to `webcorpus serve`\n");
      process.exit(130);
    }
    interrupted = true;
    requestCancel(db, jobId);
    process.stderr.write("\ncancelling (Ctrl-C again to leave at once)\n");
  };
  process.on("SIGINT", onSigint);
  try {
    for (;;) {
      await Promise.race([scheduler.waitFor(jobId), Bun.sleep(1000)]);
      const current = view();
      if (process.stderr.isTTY)
        process.stderr.write(liveLine(progressLine(current), process.stderr.columns));
      if (FINAL.has(current.state)) break;
      if (scheduler.running.length === 0) scheduler.tick();
    }
  } finally {
    process.off("SIGINT", onSigint);
    await scheduler.stop();
    await searchRuntime.close();
  }
  const final = view();
  // On a terminal the live line gives way to the whole final one.
  process.stderr.write(`${process.stderr.isTTY ? "\r\x1b[K" : ""}${progressLine(final)}\n`);
  const summary = values.json
    ? final
    : {
        id: final.id,
        state: final.state,
        progress: final.progress,
        coverage: Object.fromEntries(
          Object.entries(final.coverage.buckets).map(([k, v]) => [k, v.count]),
        ),
        ...(final.render ? { render: final.render } : {}),
        ...(final.error ? { error: final.error } : {}),
      };
  console.log(JSON.stringify(summary, null, 2));
  store.close();
  if (interrupted) return 130;
  return final.state === "completed" || final.state === "partial" ? 0 : 1;
}
