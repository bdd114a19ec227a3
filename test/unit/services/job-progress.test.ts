/** A job's phases, rates and ETA: the ETA covers embedding, the fetch rate stays the fetch rate. */
import { expect, test } from "bun:test";
import { type ProgressInput, progressFigures } from "../../../src/services/job-progress.ts";

const base: ProgressInput = {
  state: "running",
  final: false,
  budget: 300,
  fetched: 300,
  indexed: 300,
  pending: 0,
  resolved: 300,
  elapsedS: 600,
  fetchElapsedS: 90,
  fetchEnded: true,
  embedding: { chunks: 21_509, waiting: 15_000, pagesWaiting: 250 },
};

test("fetching over, thousands of chunks waiting: phase embedding, an ETA over the backlog", () => {
  const f = progressFigures(base);
  expect(f.phase).toBe("embedding");
  // 6509 chunks in 600 s: 10.8/s; 15000 left take ~1385 s.
  expect(f.chunks_per_s).toBe(10.8);
  expect(f.embedded_chunks).toBe(6509);
  expect(f.embedding_backlog).toBe(15_000);
  expect(f.eta?.low_s).toBeGreaterThan(1000);
  expect(f.eta?.high_s).toBeGreaterThan(1385);
  // The fetch rate over the 90 s of fetching, not over the job's 600 s.
  expect(f.pages_per_min).toBe(200);
  // 50 pages searchable in 10 minutes.
  expect(f.searchable).toBe(50);
  expect(f.searchable_per_min).toBe(5);
});

test("while fetching, the ETA is the later of fetching and embedding the chunks still to come", () => {
  const f = progressFigures({
    ...base,
    fetched: 100,
    indexed: 100,
    pending: 200,
    resolved: 100,
    elapsedS: 60,
    fetchElapsedS: 60,
    fetchEnded: false,
    embedding: { chunks: 7000, waiting: 6400, pagesWaiting: 90 },
  });
  expect(f.phase).toBe("fetching");
  expect(f.pages_per_min).toBe(100);
  // Fetching alone: 200 pages at 100/min, ~2 min. Embedding: 6400 + 200 x 70 chunks at 10/s.
  expect(f.eta?.low_s).toBeGreaterThan(1500);
  expect(f.eta?.high_s).toBeGreaterThan(2040);
});

test("no chunk of the job embedded yet: no ETA rather than a fetch-only one", () => {
  const f = progressFigures({ ...base, embedding: { chunks: 500, waiting: 500, pagesWaiting: 9 } });
  expect(f.eta).toBeNull();
  expect(f.chunks_per_s).toBe(0);
});

test("without embeddings the figures are the fetch's; the embedding ones are null", () => {
  const f = progressFigures({
    ...base,
    fetched: 100,
    pending: 200,
    fetchElapsedS: 60,
    elapsedS: 60,
    fetchEnded: false,
    embedding: null,
  });
  expect(f).toMatchObject({
    phase: "fetching",
    pages_per_min: 100,
    embedding_backlog: null,
    embedded_chunks: null,
    chunks_per_s: null,
    searchable: null,
    searchable_per_min: null,
  });
  expect(f.eta?.low_s).toBe(102); // 200 pages at 100/min, x 0.85
});

test("queued has no ETA; a final job is done with a zero ETA", () => {
  expect(progressFigures({ ...base, state: "queued", fetchEnded: false }).phase).toBe("queued");
  expect(progressFigures({ ...base, state: "queued", fetchEnded: false }).eta).toBeNull();
  const done = progressFigures({
    ...base,
    state: "completed",
    final: true,
    embedding: { chunks: 21_509, waiting: 0, pagesWaiting: 0 },
  });
  expect(done.phase).toBe("done");
  expect(done.eta).toEqual({ low_s: 0, high_s: 0, confidence: 1 });
  expect(done.searchable).toBe(300);
});

test("pages become searchable no faster than they were fetched, whatever the clocks' precision", () => {
  // finished_at has whole seconds (4 s), fetch_ended_at milliseconds (4.7 s).
  const f = progressFigures({
    ...base,
    state: "completed",
    final: true,
    fetched: 11,
    indexed: 11,
    elapsedS: 4,
    fetchElapsedS: 4.7,
    embedding: { chunks: 51, waiting: 0, pagesWaiting: 0 },
  });
  expect(f.pages_per_min).toBe(140.4);
  expect(f.searchable_per_min).toBe(140.4);
});

test("a job that was final within a second still has its rates (a running one's first second has none)", () => {
  const quick = { ...base, indexed: 5, fetched: 5, elapsedS: 0, fetchElapsedS: 0.8 };
  const done = progressFigures({
    ...quick,
    state: "completed",
    final: true,
    embedding: { chunks: 12, waiting: 0, pagesWaiting: 0 },
  });
  expect(done.chunks_per_s).toBe(15);
  expect(done.searchable_per_min).toBe(375);
  const running = progressFigures({
    ...quick,
    fetchEnded: false,
    embedding: { chunks: 12, waiting: 6, pagesWaiting: 2 },
  });
  expect(running.chunks_per_s).toBe(0);
  expect(running.searchable_per_min).toBe(0);
});
