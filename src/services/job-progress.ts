/**
 * A job's progress in its phases: `fetching` (pages fetched and stored, searchable by text), then
 * `embedding` (fetching is over, chunks still wait for vectors), then `done`. Fetching and
 * embedding overlap, so the ETA is the later of the two: a job is final only once its chunks have
 * their vectors, and its ETA never reads "a few seconds" while thousands of them wait.
 */
import type { JobEmbedding } from "../db/embedding-queue-repo.ts";

export const JOB_PHASES = ["queued", "fetching", "embedding", "done"] as const;
export type JobPhase = (typeof JOB_PHASES)[number];

export interface Eta {
  low_s: number;
  high_s: number;
  confidence: number;
}

/** What the progress is computed from, all read from the store. */
export interface ProgressInput {
  readonly state: string;
  readonly final: boolean;
  readonly budget: number;
  readonly fetched: number;
  /** Pages stored by this job (the `indexed` bucket). */
  readonly indexed: number;
  /** URLs known but not fetched yet. */
  readonly pending: number;
  /** URLs resolved: the ETA's confidence grows with them. */
  readonly resolved: number;
  /** Seconds since the job started (to its end, once final). */
  readonly elapsedS: number;
  /** Seconds it spent fetching (to `fetch_ended_at` once fetching is over). */
  readonly fetchElapsedS: number;
  readonly fetchEnded: boolean;
  /** Null when nothing is embedded (embeddings off). */
  readonly embedding: JobEmbedding | null;
}

export interface ProgressFigures {
  phase: JobPhase;
  pages_per_min: number;
  eta: Eta | null;
  embedding_backlog: number | null;
  embedded_chunks: number | null;
  chunks_per_s: number | null;
  searchable: number | null;
  searchable_per_min: number | null;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function jobPhase(state: string, final: boolean, fetchEnded: boolean): JobPhase {
  if (final) return "done";
  if (state === "queued") return "queued";
  return fetchEnded ? "embedding" : "fetching";
}

export function progressFigures(p: ProgressInput): ProgressFigures {
  const phase = jobPhase(p.state, p.final, p.fetchEnded);
  // Not from the first second of a running fetch (too noisy); a finished one may have been short.
  const settled = p.fetchEnded || p.final;
  const fetchRate = p.fetchElapsedS > (settled ? 0 : 1) ? p.fetched / (p.fetchElapsedS / 60) : 0;
  const e = p.embedding;
  const embedded = e ? e.chunks - e.waiting : null;
  // Over the job's life: embedding shares the lanes with other jobs and runs from its first page.
  // (Never shorter than the fetching: `finished_at` has whole seconds, `fetch_ended_at` not.)
  const lifeS = Math.max(p.elapsedS, p.fetchElapsedS);
  // A running job's first second is too noisy to rate; a final one may have lasted less.
  const rated = lifeS > (p.final ? 0 : 1);
  const chunkRate = embedded !== null && rated ? embedded / lifeS : 0;
  const searchable = e ? Math.max(0, p.indexed - e.pagesWaiting) : null;
  return {
    phase,
    pages_per_min: round1(fetchRate),
    eta: eta(p, phase, fetchRate / 60, chunkRate),
    embedding_backlog: e ? e.waiting : null,
    embedded_chunks: embedded,
    chunks_per_s: e ? round1(chunkRate) : null,
    searchable,
    searchable_per_min: searchable === null ? null : round1(rated ? searchable / (lifeS / 60) : 0),
  };
}

function eta(p: ProgressInput, phase: JobPhase, pagesPerS: number, chunksPerS: number): Eta | null {
  if (phase === "done") return { low_s: 0, high_s: 0, confidence: 1 };
  if (phase === "queued") return null;
  // Pages still to fetch: at least the pending ones the budget allows, at most the budget left.
  let lowPages = 0;
  let highPages = 0;
  let fetchLow = 0;
  let fetchHigh = 0;
  if (phase === "fetching") {
    if (pagesPerS <= 0) return null;
    const budgetLeft = Math.max(0, p.budget - p.fetched);
    lowPages = Math.min(p.pending, budgetLeft);
    highPages = Math.max(lowPages, p.pending < budgetLeft ? budgetLeft : lowPages);
    fetchLow = (lowPages / pagesPerS) * 0.85;
    fetchHigh = (highPages / pagesPerS) * 1.3 + 5;
  }
  let confidence = Math.min(0.9, 0.3 + p.resolved / 500);
  let embedLow = 0;
  let embedHigh = 0;
  const e = p.embedding;
  if (e) {
    // Chunks still to come: the pages still to fetch, at this job's chunks per stored page.
    const perPage = p.indexed > 0 ? e.chunks / p.indexed : 0;
    const lowChunks = e.waiting + lowPages * perPage;
    const highChunks = e.waiting + highPages * perPage;
    if (highChunks > 0) {
      if (chunksPerS <= 0) return null; // none of its chunks embedded yet: no rate to go by
      embedLow = (lowChunks / chunksPerS) * 0.85;
      embedHigh = (highChunks / chunksPerS) * 1.3 + 5;
      if (phase === "embedding") confidence = Math.min(0.9, 0.3 + (e.chunks - e.waiting) / 2000);
    }
  }
  return {
    low_s: Math.round(Math.max(fetchLow, embedLow)),
    high_s: Math.round(Math.max(fetchHigh, embedHigh)),
    confidence: Math.round(confidence * 100) / 100,
  };
}
