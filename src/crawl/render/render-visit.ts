/**
 * A page of a crawl, rendered when the job's `render` mode says so: the worker fetches and
 * processes it statically; a page to render (`always`, or `auto` and the detector) is rendered
 * in Chromium from the static body already fetched, and its DOM processed by a worker in turn.
 * The links of the rendered page, and the URLs it pushed into its history, are the page's links.
 * A render that fails leaves the static page; the job's `render` report says what happened.
 */
import { renderedBefore } from "../../db/jobs-repo.ts";
import type { Link } from "../../extract/document.ts";
import type { FetchResult } from "../fetch-result.ts";
import type { JobRun } from "../job-run.ts";
import type { PageTask } from "../messages.ts";
import type { PageTaskResult } from "../worker-pool.ts";
import { BrowserUnavailable, findChromium } from "./browser.ts";
import { browserFetch } from "./crawl-fetch.ts";
import {
  gained,
  type RenderHistory,
  type RenderMode,
  renderVerdict,
  THIN_WORDS,
} from "./detector.ts";
import { Renderer, RenderFailed } from "./renderer.ts";

const LISTED = 20;

/** What the job's rendering did (the job's info, shown in the job view as `render`). */
export interface RenderReport {
  mode: RenderMode;
  rendered: number;
  /** Rendered pages whose text grew by it. */
  gained: number;
  /** Wall milliseconds of the renders, summed. */
  render_ms: number;
  failed: { url: string; reason: string }[];
  /** Requests of rendered pages that the crawl's fetch refused (the first 20), and how many. */
  refused: { page: string; url: string; reason: string }[];
  refused_total: number;
  error?: string;
}

interface RenderState {
  readonly report: RenderReport;
  readonly history: RenderHistory;
  renderer: Renderer | null;
}

const states = new WeakMap<JobRun, RenderState>();

export const renderMode = (run: JobRun): RenderMode => run.params.render ?? "auto";

/** A job's report before it rendered anything. */
export function emptyRenderReport(mode: RenderMode): RenderReport {
  return { mode, rendered: 0, gained: 0, render_ms: 0, failed: [], refused: [], refused_total: 0 };
}

function stateOf(run: JobRun): RenderState {
  let state = states.get(run);
  if (state === undefined) {
    const previous = run.info.render as RenderReport | undefined; // a resumed job
    const report: RenderReport = previous ?? emptyRenderReport(renderMode(run));
    run.info.render = report;
    // What the domain's earlier crawls needed counts as this job's own first pages would.
    const earlier = renderMode(run) === "auto" && renderedBefore(run.db, run.domain, run.job.id);
    const history = {
      pages: 0,
      thin: 0,
      rendered: report.rendered,
      gained: report.gained + (earlier ? 1 : 0),
    };
    state = { report, history, renderer: null };
    states.set(run, state);
  }
  return state;
}

/** Fetches and processes one page, rendered when it needs to be; never rejects. */
export async function fetchPage(
  run: JobRun,
  task: Omit<PageTask, "id" | "render" | "rendered">,
): Promise<PageTaskResult> {
  const mode = renderMode(run);
  const state = stateOf(run);
  const result = await run.deps.pool.run(mode === "never" ? task : { ...task, render: mode });
  if (result.kind !== "done" || result.page === null) return result;
  const words = result.page.doc.words;
  state.history.pages++;
  if (words < THIN_WORDS) state.history.thin++;
  const candidate = result.render;
  if (candidate === undefined) return result;
  const { render: _body, ...staticResult } = result;
  if (mode === "auto" && !renderVerdict(candidate.signals, state.history).render)
    return staticResult;
  const renderer = rendererOf(run, state);
  if (renderer === null) return staticResult;
  const { report } = state;
  const started = performance.now();
  const page: FetchResult = {
    url: task.url,
    status: result.fetch.status,
    headers: result.fetch.headers,
    body: candidate.body,
    elapsedMs: result.fetch.elapsedMs,
    error: null,
    attempts: result.fetch.attempts,
    address: null,
    redirects: [],
  };
  let html: string;
  let pushed: readonly string[];
  try {
    const rendered = await renderer.render(task.url, page);
    html = rendered.html;
    pushed = rendered.pushed;
    for (const r of rendered.refused) {
      report.refused_total++;
      if (report.refused.length < LISTED) report.refused.push({ page: task.url, ...r });
    }
  } catch (err) {
    if (err instanceof BrowserUnavailable) {
      report.error ??= err.message;
      run.deps.log(`job ${run.job.id}: rendering: ${err.message}`);
    } else if (err instanceof RenderFailed) {
      if (report.failed.length < LISTED) report.failed.push({ url: task.url, reason: err.message });
    } else throw err;
    return staticResult;
  } finally {
    report.render_ms += Math.round(performance.now() - started);
  }
  const again = await run.deps.pool.run({ ...task, rendered: { html, fetch: result.fetch } });
  if (again.kind !== "done" || again.page === null) {
    const reason = again.kind === "failed" ? again.reason : "the rendered page was not processed";
    if (report.failed.length < LISTED) report.failed.push({ url: task.url, reason });
    return staticResult;
  }
  report.rendered++;
  state.history.rendered++;
  if (gained(words, again.page.doc.words)) {
    report.gained++;
    state.history.gained++;
  }
  if (pushed.length === 0) return again;
  const { doc } = again.page;
  const known = new Set(doc.links.map((l) => l.url));
  const extra: Link[] = [];
  for (const url of pushed) {
    const bare = url.split("#")[0] ?? url;
    if (known.has(bare)) continue;
    known.add(bare);
    extra.push({ url: bare, anchorText: "", position: "body", nofollow: false });
  }
  return { ...again, page: { ...again.page, doc: { ...doc, links: [...doc.links, ...extra] } } };
}

function rendererOf(run: JobRun, state: RenderState): Renderer | null {
  if (state.renderer !== null) return state.renderer.unavailable ? null : state.renderer;
  const { config } = run.deps;
  try {
    state.renderer = new Renderer({
      chromium: findChromium(config.chromiumPath),
      fetch: browserFetch(run),
      contexts: config.renderContexts,
      timeoutMs: config.renderTimeoutS * 1000,
    });
    return state.renderer;
  } catch (err) {
    if (!(err instanceof BrowserUnavailable)) throw err;
    state.report.error ??= err.message;
    return null;
  }
}

/** Closes the job's browser, if it started one. */
export async function closeRenderer(run: JobRun): Promise<void> {
  const state = states.get(run);
  await state?.renderer?.close();
  if (state) state.renderer = null;
}
