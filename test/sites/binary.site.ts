/**
 * The single executable (src/build-binary.ts): built, started on an empty data dir, it
 * migrates its database from the embedded migrations, serves Swagger UI's assets, the API and
 * MCP, and stops on SIGTERM. (A site test: it writes a ~110 MB file.)
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INIT, postRaw } from "../helpers/mcp.ts";
import { PROSE, page, serveSite } from "../helpers/site.ts";

// Browsers, subprocesses and real sites: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(120_000);

const ROOT = join(import.meta.dir, "../..");
let dir: string;
let base: string;
let server: ReturnType<typeof Bun.spawn>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "webcorpus-binary-"));
  const build = Bun.spawn(["bun", "src/build-binary.ts", join(dir, "dist")], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, err] = await Promise.all([build.exited, new Response(build.stderr).text()]);
  if (code !== 0) throw new Error(`build failed: ${err.slice(-1000)}`);
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port;
  await probe.stop(true);
  server = Bun.spawn([join(dir, "dist", "webcorpus"), "serve", "--port", String(port)], {
    cwd: dir, // nowhere near the sources: everything it needs is inside it
    env: {
      PATH: process.env.PATH ?? "",
      LD_LIBRARY_PATH: join(dir, "dist", "lib"),
      WEBCORPUS_DATA_DIR: join(dir, "data"),
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/api/openapi.json`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await Bun.sleep(100);
  }
  throw new Error("the executable did not come up");
}, 300_000);

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

test("the executable serves the API, Swagger UI's assets and MCP from an empty data dir", async () => {
  const list = (await (await fetch(`${base}/api/content`)).json()) as { total: number };
  expect(list.total).toBe(0);
  for (const asset of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
    const r = await fetch(`${base}/api/docs/assets/${asset}`);
    expect(r.status).toBe(200);
    expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  }
  expect((await fetch(`${base}/api/docs`)).status).toBe(200);
  const r = await postRaw(`${base}/api/mcp`, INIT);
  expect(r.status).toBe(200);
  expect(
    ((await r.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name,
  ).toBe("webcorpus");
});

test("the executable crawls and searches: its crawl and embedding workers start", async () => {
  const site = serveSite("binary.test", { "/": page("Acme", `<p>${PROSE}</p>`) });
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port;
  await probe.stop(true);
  const crawl = Bun.spawn([join(dir, "dist", "webcorpus"), "crawl", "binary.test"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "",
      LD_LIBRARY_PATH: join(dir, "dist", "lib"),
      WEBCORPUS_DATA_DIR: join(dir, "crawl-data"),
      WEBCORPUS_CONNECT_TO: site.connectTo(),
      WEBCORPUS_CONNECT_TO_ONLY: "true",
      WEBCORPUS_ALLOW_PRIVATE_SUFFIXES: "true",
      WEBCORPUS_EMBED_THREADS: "1",
      WEBCORPUS_PORT: String(port),
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, code] = await Promise.all([new Response(crawl.stdout).text(), crawl.exited]);
  await site.stop();
  expect(code).toBe(0);
  const summary = JSON.parse(out) as {
    state: string;
    coverage: { indexed: number };
    progress: { embedding_backlog: number };
  };
  expect(summary).toMatchObject({
    state: "completed",
    coverage: { indexed: 1 },
    progress: { embedding_backlog: 0 },
  });
}, 300_000);

test("it stops on SIGTERM", async () => {
  server.kill("SIGTERM");
  expect(await server.exited).toBe(0);
});
