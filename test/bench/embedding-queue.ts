/**
 * The fair embedding pick against the old oldest-first one, on a real SQLite file: a 30k-chunk
 * backlog of one job, a 5-page job behind it, and 100k embedded chunks of 50 finished jobs.
 * Prints the median time of each pick, of the job view's count of a job's chunks, and the query
 * plans.
 *
 *   bun test/bench/embedding-queue.ts [backlog chunks, default 30000]
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { chunksToEmbed } from "../../src/db/chunks-repo.ts";
import { openStore } from "../../src/db/client.ts";
import {
  fairPendingIds,
  jobEmbedding,
  nextEmbeddingBatch,
} from "../../src/db/embedding-queue-repo.ts";
import { tempDir } from "../helpers/app.ts";
import { writeBacklog } from "../helpers/backlog.ts";
import { median } from "./support/stats.ts";

const backlog = Number(process.argv[2] ?? 30_000);
const dir = tempDir();
const store = openStore(join(dir, "bench.db"));
const db = store.write;
let t = performance.now();
for (let j = 0; j < 50; j++)
  writeBacklog(db, {
    domain: `done${j}.test`,
    jobId: `job_00000000000${String(j).padStart(3, "0")}`,
    pages: 40,
    chunksPerPage: 50,
    embedded: true,
  });
writeBacklog(db, {
  domain: "big.test",
  jobId: "job_0000000000900",
  pages: backlog / 100,
  chunksPerPage: 100,
});
writeBacklog(db, { domain: "small.test", jobId: "job_0000000000901", pages: 5, chunksPerPage: 10 });
db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
console.log(`setup ${((performance.now() - t) / 1000).toFixed(1)} s`);

function time(name: string, f: () => unknown[], runs = 50): void {
  const ms: number[] = [];
  let n = 0;
  for (let i = 0; i < runs; i++) {
    t = performance.now();
    n = f().length;
    ms.push(performance.now() - t);
  }
  console.log(`${name.padEnd(34)} ${median(ms).toFixed(2).padStart(7)} ms median (${n} rows)`);
}
time("chunksToEmbed(64) oldest-first", () => chunksToEmbed(db, 64));
time("fairPendingIds(64)", () => fairPendingIds(db, 64));
time("nextEmbeddingBatch(64)", () => nextEmbeddingBatch(db, 64));
time("jobEmbedding (job view), 30k waiting", () => [jobEmbedding(db, "job_0000000000900")]);
time("jobEmbedding (job view), 2k embedded", () => [jobEmbedding(db, "job_00000000000001")]);
const small = nextEmbeddingBatch(db, 64).filter((c) => c.domain === "small.test").length;
const old = chunksToEmbed(db, 64).filter((c) => c.domain === "small.test").length;
console.log(`small job's chunks in one round of 64: fair ${small}, oldest-first ${old}`);
for (const [name, sql] of [
  ["groups", "EXPLAIN QUERY PLAN SELECT (SELECT min(c.job_id) FROM chunks c WHERE c.job_id > 'x')"],
  [
    "slice",
    "EXPLAIN QUERY PLAN SELECT id FROM chunks WHERE job_id = 'x' AND embedded = 0 AND id > 0 ORDER BY id LIMIT 10",
  ],
] as const) {
  const plan = db.$client
    .query<{ detail: string }, []>(sql)
    .all()
    .map((r) => r.detail);
  console.log(`${name}: ${plan.join(" | ")}`);
}
store.close();
rmSync(dir, { recursive: true, force: true });
