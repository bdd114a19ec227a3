/**
 * Crash safety: `kill -9` of a real `webcorpus serve` mid-crawl, then a restart. The job resumes
 * from its ledger on the same host at once: no URL lost, no page stored twice.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../src/db/client.ts";
import { jobView, requireJob } from "../../src/services/jobs-service.ts";
import { tempDir } from "../helpers/app.ts";
import { CLI, cliEnv, freePort, runCli } from "../helpers/cli.ts";
import { expectInvariant } from "../helpers/crawl.ts";
import { PROSE, page, SLOW, serveSite, type TestSite } from "../helpers/site.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const PAGES = 40;
let site: TestSite | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await site?.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function pages(): Record<string, string> {
  const out: Record<string, string> = {};
  const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p${i}.html">page ${i}</a>`).join(
    " ",
  );
  out["/"] = page("Home", `<p>${PROSE}</p><p>${links}</p>`);
  for (let i = 0; i < PAGES; i++)
    out[`/p${i}.html`] =
      `${SLOW}0.15:${page(`Page ${i}`, `<p>${PROSE} Number ${i} of the crash test.</p>`)}`;
  return out;
}

async function serve(dir: string, port: number) {
  const proc = Bun.spawn(["bun", CLI, "serve", "--port", String(port)], {
    env: cliEnv({
      WEBCORPUS_DATA_DIR: dir,
      WEBCORPUS_CONNECT_TO: site?.connectTo() ?? "",
      WEBCORPUS_CONNECT_TO_ONLY: "true",
      WEBCORPUS_ALLOW_PRIVATE_SUFFIXES: "true",
      WEBCORPUS_CRAWL_DELAY_S: "0",
      WEBCORPUS_HOST_CONCURRENCY: "2",
      WEBCORPUS_MAX_CONCURRENCY: "2",
      WEBCORPUS_EMBEDDINGS: "false",
    }),
    stdout: "ignore",
    stderr: "ignore",
  });
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/api/jobs`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return proc;
    await Bun.sleep(50);
  }
  throw new Error("serve did not start");
}

async function job(port: number, id: string) {
  return (await (await fetch(`http://127.0.0.1:${port}/api/jobs/${id}`)).json()) as {
    state: string;
    progress: { indexed: number };
    resumes: number;
  };
}

test.each([
  ["SIGKILL", "kill -9"],
  ["SIGTERM", "a clean stop"],
] as const)(
  "%s (%s) mid-crawl, restart: the job resumes and ends with every page stored once",
  async (signal) => {
    site = serveSite("crash.test", pages());
    const dir = tempDir();
    dirs.push(dir);
    const key = (await runCli(["keys", "create", "me"], { WEBCORPUS_DATA_DIR: dir })).stdout.trim();
    const port = freePort();
    const first = await serve(dir, port);
    const started = await fetch(`http://127.0.0.1:${port}/api/crawl`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ domain: "crash.test", budget: 100 }),
    });
    const { job_id } = (await started.json()) as { job_id: string };
    let indexed = 0;
    for (let i = 0; i < 400 && indexed < 8; i++) {
      await Bun.sleep(50);
      indexed = (await job(port, job_id)).progress.indexed;
    }
    expect(indexed).toBeGreaterThanOrEqual(8);
    first.kill(signal);
    const code = await first.exited;
    // A clean stop lets in-flight pages finish and exits 0; kill -9 leaves them pending.
    if (signal === "SIGTERM") expect(code).toBe(0);
    expect((await job(port, job_id).catch(() => null)) === null).toBe(true);

    const second = await serve(dir, port);
    try {
      let state = "running";
      for (let i = 0; i < 600 && state === "running"; i++) {
        await Bun.sleep(100);
        state = (await job(port, job_id)).state;
      }
      expect(state).toBe("completed");
      expect((await job(port, job_id)).resumes).toBe(1);
    } finally {
      second.kill("SIGTERM");
      await second.exited;
    }
    const store = openStore(join(dir, "webcorpus.db"));
    try {
      const view = jobView(
        { db: store.read, embeddingBacklog: null },
        requireJob(store.read, job_id),
      );
      expectInvariant(view);
      expect(view.coverage.buckets.indexed.count).toBe(PAGES + 1);
      const history = store.read.$client
        .query<{ n: number; pages: number }, []>(
          "SELECT count(*) AS n, count(DISTINCT page_id) AS pages FROM page_history",
        )
        .get();
      expect(history).toEqual({ n: PAGES + 1, pages: PAGES + 1 });
    } finally {
      store.close();
    }
  },
);
