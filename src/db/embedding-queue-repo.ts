/**
 * The embedding backlog shared between jobs: each round takes a slice of every job with chunks
 * waiting (oldest first within a job), so a small crawl started behind a large backlog is
 * embedded within a round or two of its pages being stored instead of after the whole backlog.
 * Chunks without a job (`job_id` NULL) are one more group.
 *
 * Index-only: the jobs with waiting chunks are found by a skip-scan over `chunks_job (job_id,
 * embedded)` (one seek per distinct job id, not a scan of the backlog), and each job's slice is a
 * range of that index in rowid order.
 */
import { type PendingChunk, pendingChunks } from "./chunks-repo.ts";
import type { Db } from "./client.ts";

interface Group {
  readonly jobId: string | null;
  /** The job's oldest waiting chunk: groups are visited oldest first. */
  readonly first: number;
}

const SQL = {
  // Every distinct job id (NULL excluded by min()), then its oldest waiting chunk, if any.
  groups: `WITH RECURSIVE j(job_id) AS (
      SELECT min(job_id) FROM chunks
      UNION ALL
      SELECT (SELECT min(c.job_id) FROM chunks c WHERE c.job_id > j.job_id) FROM j
      WHERE j.job_id IS NOT NULL
    )
    SELECT job_id AS jobId, (SELECT c.id FROM chunks c
      WHERE c.job_id = j.job_id AND c.embedded = 0 ORDER BY c.id LIMIT 1) AS first
    FROM j WHERE job_id IS NOT NULL AND first IS NOT NULL
    UNION ALL
    SELECT NULL, (SELECT id FROM chunks WHERE job_id IS NULL AND embedded = 0 ORDER BY id LIMIT 1)
    WHERE (SELECT id FROM chunks WHERE job_id IS NULL AND embedded = 0 LIMIT 1) IS NOT NULL
    ORDER BY first`,
  slice: `SELECT id FROM chunks WHERE job_id = ?1 AND embedded = 0 AND id > ?2
    ORDER BY id LIMIT ?3`,
  sliceNoJob: `SELECT id FROM chunks WHERE job_id IS NULL AND embedded = 0 AND id > ?1
    ORDER BY id LIMIT ?2`,
} as const;

/** Jobs (null: chunks of no job) with chunks waiting for vectors, oldest waiting chunk first. */
export function jobsWithBacklog(db: Db): (string | null)[] {
  return groups(db).map((g) => g.jobId);
}

function groups(db: Db): Group[] {
  return db.$client.query<Group, []>(SQL.groups).all();
}

/**
 * Ids of up to `limit` waiting chunks, shared between the jobs that have some: an equal slice of
 * each (oldest first within a job), what a job leaves of its slice going to the others.
 */
export function fairPendingIds(db: Db, limit: number): number[] {
  const c = db.$client;
  const slice = c.query<{ id: number }, [string, number, number]>(SQL.slice);
  const sliceNoJob = c.query<{ id: number }, [number, number]>(SQL.sliceNoJob);
  const take = (jobId: string | null, after: number, n: number): number[] =>
    (jobId === null ? sliceNoJob.all(after, n) : slice.all(jobId, after, n)).map((r) => r.id);
  let active = groups(db).map((g) => ({ jobId: g.jobId, after: g.first - 1 }));
  const picked: number[] = [];
  while (picked.length < limit && active.length > 0) {
    const share = Math.max(1, Math.floor((limit - picked.length) / active.length));
    const more: typeof active = [];
    for (const g of active) {
      const want = Math.min(share, limit - picked.length);
      if (want === 0) break;
      const ids = take(g.jobId, g.after, want);
      picked.push(...ids);
      const last = ids.at(-1);
      // A full slice may have more behind it; a short one emptied the job.
      if (ids.length === want && last !== undefined) more.push({ jobId: g.jobId, after: last });
    }
    active = more;
  }
  return picked.sort((a, b) => a - b);
}

/** The next round for the embedder: `fairPendingIds`' chunks, with their page's domain and title. */
export function nextEmbeddingBatch(db: Db, limit: number): PendingChunk[] {
  return pendingChunks(db, fairPendingIds(db, limit));
}

export interface JobEmbedding {
  /** Chunks the job stored. */
  readonly chunks: number;
  /** Of those, still waiting for vectors (the job's embedding backlog). */
  readonly waiting: number;
  /** Pages of the job with a chunk still waiting: not yet searchable by vector. */
  readonly pagesWaiting: number;
}

/** Where a job's chunks stand: counts from `chunks_job` alone, then the pages of the waiting
 * ones (a row read each, so only when some wait). */
export function jobEmbedding(db: Db, jobId: string): JobEmbedding {
  const c = db.$client;
  const counts = c
    .query<{ chunks: number; waiting: number | null }, [string]>(
      "SELECT count(*) AS chunks, sum(embedded = 0) AS waiting FROM chunks WHERE job_id = ?1",
    )
    .get(jobId);
  const waiting = counts?.waiting ?? 0;
  const pagesWaiting =
    waiting === 0
      ? 0
      : (c
          .query<{ n: number }, [string]>(
            "SELECT count(DISTINCT page_id) AS n FROM chunks WHERE job_id = ?1 AND embedded = 0",
          )
          .get(jobId)?.n ?? 0);
  return { chunks: counts?.chunks ?? 0, waiting, pagesWaiting };
}
