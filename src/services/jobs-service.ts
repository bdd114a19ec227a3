/** Job status: progress with an ETA range, and coverage buckets derived from the ledger. */
import { BUCKET_REASONS, BUCKETS, type Bucket, isBucket } from "../crawl/buckets.ts";
import { emptyRenderReport, type RenderReport } from "../crawl/render/render-visit.ts";
import type { Db } from "../db/client.ts";
import { jobEmbedding } from "../db/embedding-queue-repo.ts";
import {
  bucketCounts,
  bucketReasons,
  bucketSample,
  fetchedCount,
  getJob,
  type JobParams,
  type JobRow,
  type JobUrlRow,
  listJobUrls,
} from "../db/jobs-repo.ts";
import { invalidParam, notFound } from "./errors.ts";
import { withPrefix } from "./ids.ts";
import { type Eta, type JobPhase, progressFigures } from "./job-progress.ts";

export type { Eta, JobPhase } from "./job-progress.ts";

export const FINAL_STATES = ["completed", "partial", "failed", "cancelled"] as const;

export interface BucketView {
  count: number;
  reason: string;
  sample: string[];
  reasons?: { reason: string; count: number }[];
}

export interface JobView {
  id: string;
  domain: string;
  state: JobRow["state"];
  params: JobParams;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress: {
    indexed: number;
    pending: number;
    discovered: number;
    fetched: number;
    elapsed_s: number;
    /** The fetch rate: pages fetched per minute while the job was fetching. */
    pages_per_min: number;
    /** Until the job is final: fetching and embedding, whichever ends later. */
    eta: Eta | null;
    embedding_backlog: number | null;
    phase: JobPhase;
    embedded_chunks: number | null;
    chunks_per_s: number | null;
    /** Pages of this job searchable by vector too (every chunk embedded), and their rate. */
    searchable: number | null;
    searchable_per_min: number | null;
  };
  coverage: { total: number; buckets: Record<Bucket | "unaccounted", BucketView> };
  cancel_requested: boolean;
  resumes: number;
  error: string | null;
  screenshots?: ScreenshotReport;
  /** The job's render mode and what its rendering did (render-visit.ts writes it in the info). */
  render?: RenderReport;
}

/** What became of the screenshots a crawl asked for (the crawler writes it in the job's info). */
export interface ScreenshotReport {
  requested: number;
  taken: number;
  failed: { url: string; reason: string }[];
  error?: string;
}

/** What the job view needs beyond the store: whether vectors are on (the embedding backlog of a
 * job; the view reads its chunks' state itself). */
export interface JobViewDeps {
  readonly db: Db;
  readonly embeddingBacklog: ((jobId: string) => number) | null;
  readonly now?: () => number;
}

export function requireJob(db: Db, id: string): JobRow {
  const fullId = withPrefix("job_", id);
  const job = getJob(db, fullId);
  if (!job) throw notFound(`job ${fullId}`);
  return job;
}

const seconds = (iso: string): number => Date.parse(iso) / 1000;

function coverage(db: Db, jobId: string): JobView["coverage"] {
  const counts = bucketCounts(db, jobId);
  const buckets = {} as Record<Bucket | "unaccounted", BucketView>;
  let total = 0;
  let known = 0;
  for (const n of counts.values()) total += n;
  for (const name of BUCKETS) {
    const n = counts.get(name) ?? 0;
    known += n;
    const entry: BucketView = { count: n, reason: BUCKET_REASONS[name], sample: [] };
    if (n > 0) {
      entry.sample = bucketSample(db, jobId, name, 10);
      const reasons = bucketReasons(db, jobId, name);
      if (reasons.length > 0) entry.reasons = reasons;
    }
    buckets[name] = entry;
  }
  // Computed from the same counts, not assumed: rows whose bucket is no known name.
  buckets.unaccounted = {
    count: total - known,
    reason: "URLs known to the job but in no other bucket (always 0)",
    sample: [],
  };
  return { total, buckets };
}

export function jobView(deps: JobViewDeps, job: JobRow): JobView {
  const { db } = deps;
  const params = JSON.parse(job.params) as JobParams;
  const cov = coverage(db, job.id);
  const b = cov.buckets;
  const pending = b.pending.count;
  const resolved = cov.total - pending - b.budget.count - b.stoppedEarly.count;
  const fetched = fetchedCount(db, job.id);
  const nowS = (deps.now?.() ?? Date.now()) / 1000;
  const info = JSON.parse(job.info) as {
    screenshots?: ScreenshotReport;
    fetch_ended_at?: string;
    render?: RenderReport;
  };
  const since = (end: string | null) =>
    job.startedAt ? Math.max(0, (end ? seconds(end) : nowS) - seconds(job.startedAt)) : 0;
  const elapsed = since(job.finishedAt);
  const figures = progressFigures({
    state: job.state,
    final: (FINAL_STATES as readonly string[]).includes(job.state),
    budget: params.budget,
    fetched,
    indexed: b.indexed.count,
    pending,
    resolved,
    elapsedS: elapsed,
    fetchElapsedS: since(info.fetch_ended_at ?? job.finishedAt),
    fetchEnded: info.fetch_ended_at !== undefined,
    embedding: deps.embeddingBacklog ? jobEmbedding(db, job.id) : null,
  });
  const view: JobView = {
    id: job.id,
    domain: job.domain,
    state: job.state,
    params,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    progress: {
      indexed: b.indexed.count,
      pending,
      discovered: cov.total,
      fetched,
      elapsed_s: Math.round(elapsed * 10) / 10,
      pages_per_min: figures.pages_per_min,
      eta: figures.eta,
      embedding_backlog: figures.embedding_backlog,
      phase: figures.phase,
      embedded_chunks: figures.embedded_chunks,
      chunks_per_s: figures.chunks_per_s,
      searchable: figures.searchable,
      searchable_per_min: figures.searchable_per_min,
    },
    coverage: cov,
    cancel_requested: job.cancelRequested,
    resumes: job.resumes,
    error: job.error,
    render: renderView(params, info.render),
  };
  if (params.shots > 0) view.screenshots = screenshotReport(job, params, info.screenshots);
  return view;
}

function renderView(params: JobParams, report: RenderReport | undefined): RenderReport {
  return report ?? emptyRenderReport(params.render ?? "auto");
}

/** What became of the screenshots a crawl asked for. */
function screenshotReport(
  job: JobRow,
  params: JobParams,
  report: ScreenshotReport | undefined,
): ScreenshotReport {
  if (report) return report;
  const waiting: ScreenshotReport = { requested: params.shots, taken: 0, failed: [] };
  if (job.state === "queued" || job.state === "running") return waiting;
  return { ...waiting, error: `not taken: the job ended ${job.state} before its screenshots` };
}

export function jobUrls(
  db: Db,
  id: string,
  bucket: string | null,
  limit: number,
  offset: number,
): { rows: JobUrlRow[]; total: number } {
  const job = requireJob(db, id);
  if (bucket !== null && bucket !== "unaccounted" && !isBucket(bucket)) {
    throw invalidParam("bucket", `must be one of ${BUCKETS.join(", ")}, unaccounted`);
  }
  return listJobUrls(db, job.id, bucket, limit, offset);
}
