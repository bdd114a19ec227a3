/** `webcorpus crawl` from the shell: a summary with the buckets, exit codes, Ctrl-C cancels. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { tempDir } from "../helpers/app.ts";
import { CLI, cliEnv, runCli } from "../helpers/cli.ts";
import { PROSE, page, SLOW, serveSite, type TestSite } from "../helpers/site.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

let site: TestSite | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await site?.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  const dir = tempDir();
  dirs.push(dir);
  return {
    WEBCORPUS_DATA_DIR: dir,
    WEBCORPUS_CONNECT_TO: site?.connectTo() ?? "",
    WEBCORPUS_CONNECT_TO_ONLY: "true",
    WEBCORPUS_ALLOW_PRIVATE_SUFFIXES: "true",
    WEBCORPUS_CRAWL_DELAY_S: "0",
    WEBCORPUS_EMBEDDINGS: "false",
    ...extra,
  };
}

function site10(slow = 0): Record<string, string> {
  const links = Array.from({ length: 10 }, (_, i) => `<a href="/p${i}.html">p${i}</a>`).join(" ");
  const pages: Record<string, string> = { "/": page("Home", `<p>${PROSE}</p>${links}`) };
  for (let i = 0; i < 10; i++)
    pages[`/p${i}.html`] =
      `${slow ? `${SLOW}${slow}:` : ""}${page(`P${i}`, `<p>${PROSE} ${i}</p>`)}`;
  return pages;
}

test("a budgeted crawl prints its summary and exits 0", async () => {
  site = serveSite("cli.test", site10());
  const out = await runCli(["crawl", "cli.test", "--budget", "4"], env());
  expect(out.code).toBe(0);
  const summary = JSON.parse(out.stdout) as {
    state: string;
    coverage: Record<string, number>;
    progress: { fetched: number };
  };
  expect(summary.state).toBe("partial");
  expect(summary.progress.fetched).toBe(4);
  expect(summary.coverage.indexed).toBe(4);
  expect(summary.coverage.budget).toBe(7);
  expect(summary.coverage.unaccounted).toBe(0);
  expect(out.stderr).toContain("partial");
});

test("a crawl that reaches nothing of the site fails with the reason and exits 1", async () => {
  site = serveSite("cli.test", {});
  const out = await runCli(["crawl", "nothing.test"], env({ WEBCORPUS_CONNECT_TO: "" }));
  expect(out.code).toBe(1);
  const summary = JSON.parse(out.stdout) as { state: string; error: string };
  expect(summary.state).toBe("failed");
  expect(summary.error).toContain("no entry point answered");
});

test("bad arguments are usage errors", async () => {
  expect((await runCli(["crawl"], env())).code).toBe(2);
  const ip = await runCli(["crawl", "10.0.0.1"], env());
  expect(ip.code).toBe(2);
  expect(ip.stderr).toContain("IP address");
  expect((await runCli(["crawl", "cli.test", "--budget", "x"], env())).stderr).toContain(
    "--budget",
  );
});

test("--start, --include and --exclude (repeatable) shape the crawl; a bad pattern is a usage error", async () => {
  site = serveSite("cli.test", site10());
  const out = await runCli(
    [
      "crawl",
      "cli.test",
      "--scope",
      "host",
      "--start",
      "http://cli.test/p1.html",
      "--start",
      "http://cli.test/",
      "--include",
      "/p*.html",
      "--exclude",
      "/p2.html",
      "--exclude",
      "**/p3*",
    ],
    env(),
  );
  expect(out.code).toBe(0);
  const summary = JSON.parse(out.stdout) as { coverage: Record<string, number> };
  expect(summary.coverage.indexed).toBe(9); // home and p0..p9 but p2, p3
  expect(summary.coverage.filtered).toBe(2);
  expect(summary.coverage.unaccounted).toBe(0);
  expect(site.count("/p2.html") + site.count("/p3.html")).toBe(0);
  const bad = await runCli(["crawl", "cli.test", "--exclude", "/a["], env());
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('exclude: pattern "/a[" has an unclosed [');
});

test("Ctrl-C cancels the crawl and waits until it has ended cancelled", async () => {
  site = serveSite("cli.test", site10(0.5));
  const proc = Bun.spawn(["bun", CLI, "crawl", "cli.test"], {
    env: cliEnv(env({ WEBCORPUS_HOST_CONCURRENCY: "1", WEBCORPUS_MAX_CONCURRENCY: "1" })),
    stdout: "pipe",
    stderr: "pipe",
  });
  while (site.count("/p0.html") + site.count("/p1.html") === 0) await Bun.sleep(20);
  proc.kill("SIGINT");
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect(code).toBe(130);
  expect(stderr).toContain("cancelling");
  const summary = JSON.parse(stdout) as { state: string; coverage: Record<string, number> };
  expect(summary.state).toBe("cancelled");
  expect(summary.coverage.stoppedEarly).toBeGreaterThan(0);
  expect(summary.coverage.pending).toBe(0);
});

test("with embeddings the last progress line shows the phase and both rates; the summary the new figures", async () => {
  site = serveSite("cli.test", site10());
  const out = await runCli(
    ["crawl", "cli.test", "--budget", "4"],
    env({ WEBCORPUS_EMBEDDINGS: "true", WEBCORPUS_EMBED_THREADS: "1" }),
  );
  expect(out.code).toBe(0);
  const summary = JSON.parse(out.stdout) as {
    state: string;
    progress: Record<string, number | string | null>;
  };
  expect(summary.state).toBe("partial");
  expect(summary.progress).toMatchObject({
    phase: "done",
    indexed: 4,
    embedding_backlog: 0,
    searchable: 4,
  });
  expect(summary.progress.pages_per_min).toBeGreaterThan(0);
  expect(summary.progress.searchable_per_min).toBeGreaterThan(0);
  expect(summary.progress.chunks_per_s).toBeGreaterThan(0);
  const last = out.stderr.trimEnd().split("\n").at(-1) ?? "";
  expect(last).toStartWith("partial done");
  expect(last).toMatch(/\d+\.\d pages\/min {2}\d+\.\d searchable\/min {2}backlog 0 chunks/);
  expect(last).not.toContain("eta");
});
