/** The `webcorpus crawl` progress line: phase, both rates, an honest ETA, redrawn cleanly. */
import { expect, test } from "bun:test";
import { liveLine, progressLine, shortDuration } from "../../../src/cli/crawl-command.ts";
import type { JobView } from "../../../src/services/jobs-service.ts";

function view(state: JobView["state"], progress: Partial<JobView["progress"]>): JobView {
  return {
    id: "job_1",
    domain: "python.org",
    state,
    params: { budget: 300, refresh: false, force: false, shots: 0 },
    created_at: "2026-11-28T09:00:00Z",
    started_at: "2026-11-28T09:00:00Z",
    finished_at: null,
    progress: {
      indexed: 300,
      pending: 0,
      discovered: 310,
      fetched: 300,
      elapsed_s: 600,
      pages_per_min: 200,
      eta: null,
      embedding_backlog: null,
      phase: "fetching",
      embedded_chunks: null,
      chunks_per_s: null,
      searchable: null,
      searchable_per_min: null,
      ...progress,
    },
    coverage: { total: 310, buckets: {} as JobView["coverage"]["buckets"] },
    cancel_requested: false,
    resumes: 0,
    error: null,
  };
}

test("the line shows the phase, the fetch rate, the searchable rate, the backlog and its ETA", () => {
  const line = progressLine(
    view("running", {
      phase: "embedding",
      embedding_backlog: 15_000,
      embedded_chunks: 6509,
      chunks_per_s: 10.8,
      searchable: 50,
      searchable_per_min: 5,
      eta: { low_s: 1180, high_s: 1810, confidence: 0.9 },
    }),
  );
  expect(line).toStartWith("running embedding");
  expect(line).toContain("200.0 pages/min");
  expect(line).toContain("5.0 searchable/min");
  expect(line).toContain("backlog 15000 chunks (10.8/s)");
  expect(line).toContain("eta 20m-30m");
  expect(line).not.toContain("eta 0-5s");
});

test("without embeddings the line has no embedding figures; a final job no ETA", () => {
  const line = progressLine(view("running", { eta: { low_s: 80, high_s: 128, confidence: 0.5 } }));
  expect(line).toContain("eta 80s-2m");
  expect(line).not.toContain("backlog");
  const done = progressLine(
    view("completed", { phase: "done", eta: { low_s: 0, high_s: 0, confidence: 1 } }),
  );
  expect(done).toStartWith("completed done");
  expect(done).not.toContain("eta");
});

test("the live line returns to column 0, is cut to the terminal and clears what was left", () => {
  const long = progressLine(view("running", { pending: 12_345 }));
  const short = progressLine(view("running", { pending: 5 }));
  expect(short.length).toBeLessThan(long.length);
  const out = liveLine(short);
  expect(out).toBe(`\r${short}\x1b[K`);
  expect(liveLine(long, 40)).toBe(`\r${long.slice(0, 39)}\x1b[K`);
  expect(shortDuration(99)).toBe("99s");
  expect(shortDuration(1810)).toBe("30m");
  expect(shortDuration(7200)).toBe("2h");
});

test("a backlog of one chunk reads in the singular", () => {
  const line = progressLine(
    view("running", { phase: "embedding", embedding_backlog: 1, chunks_per_s: 2 }),
  );
  expect(line).toContain("backlog 1 chunk (2.0/s)");
});
