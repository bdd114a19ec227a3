/** The fair pick of chunks to embed, on a real SQLite store: a slice of every job, oldest first. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openStore, type Store } from "../../src/db/client.ts";
import {
  fairPendingIds,
  jobEmbedding,
  jobsWithBacklog,
  nextEmbeddingBatch,
} from "../../src/db/embedding-queue-repo.ts";
import { tempDir } from "../helpers/app.ts";
import { writeBacklog } from "../helpers/backlog.ts";
import { markEmbedded } from "../helpers/embedded.ts";

let dir: string;
let store: Store;
const ids = (jobId: string | null) =>
  store.read.$client
    .query<{ id: number }, [string | null]>(
      "SELECT id FROM chunks WHERE job_id IS ?1 AND embedded = 0 ORDER BY id",
    )
    .all(jobId)
    .map((r) => r.id);

beforeAll(() => {
  dir = tempDir();
  store = openStore(join(dir, "q.db"));
  const db = store.write;
  writeBacklog(db, {
    domain: "done.test",
    jobId: "job_a",
    pages: 4,
    chunksPerPage: 50,
    embedded: true,
  });
  writeBacklog(db, { domain: "big.test", jobId: "job_b", pages: 20, chunksPerPage: 50 });
  writeBacklog(db, { domain: "small.test", jobId: "job_c", pages: 2, chunksPerPage: 5 });
  writeBacklog(db, { domain: "orphan.test", jobId: "job_d", pages: 1, chunksPerPage: 3 });
  // Chunks of no job (written before chunks had one).
  db.$client.exec("UPDATE chunks SET job_id = NULL WHERE job_id = 'job_d'");
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the jobs with waiting chunks, oldest waiting chunk first; a fully embedded job is not one", () => {
  expect(jobsWithBacklog(store.read)).toEqual(["job_b", "job_c", null]);
});

test("a round takes every small job's chunks and fills the rest from the big one, oldest first", () => {
  const picked = fairPendingIds(store.read, 64);
  expect(picked).toHaveLength(64);
  const big = ids("job_b");
  // 10 of job_c, 3 of no job, and job_b's 51 oldest.
  expect(picked).toEqual([...big.slice(0, 51), ...ids("job_c"), ...ids(null)]);
  expect(new Set(picked).size).toBe(64);
});

test("a round smaller than the jobs with a backlog gives one chunk to each of the oldest", () => {
  expect(fairPendingIds(store.read, 2)).toEqual([
    ...ids("job_b").slice(0, 1),
    ...ids("job_c").slice(0, 1),
  ]);
  expect(fairPendingIds(store.read, 6)).toEqual([
    ...ids("job_b").slice(0, 2),
    ...ids("job_c").slice(0, 2),
    ...ids(null).slice(0, 2),
  ]);
});

test("the batch carries what the embedder needs, and shrinks as chunks get their vectors", () => {
  const batch = nextEmbeddingBatch(store.read, 16);
  expect(batch.map((c) => c.domain).sort()).toContain("small.test");
  expect(batch.every((c) => c.text.length > 0 && c.pageId.length > 0)).toBe(true);
  markEmbedded(store.write, [...ids("job_c"), ...ids(null)]);
  expect(jobsWithBacklog(store.read)).toEqual(["job_b"]);
  expect(fairPendingIds(store.read, 64)).toEqual(ids("job_b").slice(0, 64));
  expect(jobEmbedding(store.read, "job_c")).toEqual({ chunks: 10, waiting: 0, pagesWaiting: 0 });
  expect(jobEmbedding(store.read, "job_b")).toEqual({
    chunks: 1000,
    waiting: 1000,
    pagesWaiting: 20,
  });
});
