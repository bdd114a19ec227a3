/**
 * Issue 33 §1, the render mode on every way in: the crawl body (a bad value is a 400 naming the
 * field), the job's params and view, MCP start_crawl and `webcorpus crawl --render`. Rendering
 * itself needs Chromium: test/sites/render.site.ts.
 */
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  setDefaultTimeout,
  test,
} from "bun:test";
import { rmSync } from "node:fs";
import { updateJob } from "../../src/db/jobs-repo.ts";
import { requireJob } from "../../src/services/jobs-service.ts";
import { tempDir } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { crawler, expectInvariant } from "../helpers/crawl.ts";
import { type LiveServer, live } from "../helpers/live.ts";
import { call, errorText } from "../helpers/mcp.ts";
import { PROSE, page, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(60_000);

let site: TestSite | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await site?.stop();
  site = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the render field", () => {
  let server: LiveServer;
  beforeAll(() => {
    server = live({ CRAWL_RATE_PER_MINUTE: "1000" }, false);
  });
  afterAll(() => server.close());

  test.each([["sometimes"], [true], [3]])("HTTP render %j is a 400 naming it", async (value) => {
    const r = await server.send("POST", "/api/crawl", { domain: "acme.org", render: value });
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    const problem = (await r.json()) as { code: string; errors?: { field: string }[] };
    expect(problem.code).toBe("invalid_body");
    expect(problem.errors?.[0]?.field).toBe("render");
  });

  test("HTTP: the job says its render mode (auto when not given)", async () => {
    for (const [domain, render] of [
      ["never.org", "never"],
      ["always.org", "always"],
      ["auto.org", undefined],
    ] as const) {
      const r = await server.send("POST", "/api/crawl", {
        domain,
        ...(render ? { render } : {}),
      });
      expect(r.status).toBe(202);
      const { job_id } = (await r.json()) as { job_id: string };
      const job = (await (await server.get(`/api/jobs/${job_id}`)).json()) as {
        params: { render?: string };
        render: { mode: string; rendered: number };
      };
      expect(job.params.render).toBe(render);
      expect(job.render).toMatchObject({ mode: render ?? "auto", rendered: 0 });
    }
  });

  test("MCP start_crawl takes render, and refuses a bad one naming it", async () => {
    const url = `${server.base}/api/mcp`;
    const bad = await call(
      url,
      "start_crawl",
      { domain: "acme.net", render: "maybe" },
      server.api.auth,
    );
    expect(errorText(bad)).toContain("render");
    const good = await call(
      url,
      "start_crawl",
      { domain: "acme.net", render: "never" },
      server.api.auth,
    );
    expect(good.isError).toBeFalsy();
  });
});

test("auto on a static site starts no browser and renders nothing", async () => {
  site = serveSite("static.test", {
    "/": page("Home", `<p>${PROSE}</p><a href="/a.html">A</a><script src="/t.js"></script>`),
    "/a.html": page("A", `<p>${PROSE} A.</p>`),
  });
  // A browser that cannot start would say so in render.error: auto never asked for one.
  const c = crawler({ CONNECT_TO: site.connectTo(), CHROMIUM_PATH: "/nonexistent/chromium" });
  try {
    const view = await c.crawl("static.test");
    expectInvariant(view);
    expect(view.state).toBe("completed");
    expect(view.progress.indexed).toBe(2);
    expect(view.render).toEqual({
      mode: "auto",
      rendered: 0,
      gained: 0,
      render_ms: 0,
      failed: [],
      refused: [],
      refused_total: 0,
    });
  } finally {
    c.close();
  }
});

test("auto heeds what the domain's earlier crawls needed", async () => {
  // Forty words and a script: taken as it is on a site not known to need rendering.
  const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
  site = serveSite("earlier.test", {
    "/": `<!doctype html><html><head><title>T</title></head><body><main><p>${words}</p></main><script src="/app.js"></script></body></html>`,
    "/app.js": "void 0;",
  });
  // No browser: a render asked for shows as render.error.
  const c = crawler({ CONNECT_TO: site.connectTo(), CHROMIUM_PATH: "/nonexistent/chromium" });
  try {
    const first = await c.crawl("earlier.test");
    expect(first.render?.error).toBeUndefined();
    // As if that crawl's renders had gained text.
    const info = JSON.parse(requireJob(c.store.read, first.id).info) as Record<string, unknown>;
    updateJob(c.store.write, first.id, {
      info: JSON.stringify({ ...info, render: { ...first.render, rendered: 3, gained: 3 } }),
    });
    const second = await c.crawl("earlier.test", { force: true });
    expectInvariant(second);
    expect(second.render?.error).toContain("/nonexistent/chromium");
    expect(second.progress.indexed).toBe(1); // kept as fetched
  } finally {
    c.close();
  }
});

describe("webcorpus crawl --render", () => {
  const env = () => {
    const dir = tempDir();
    dirs.push(dir);
    return {
      WEBCORPUS_DATA_DIR: dir,
      WEBCORPUS_CONNECT_TO: site?.connectTo() ?? "",
      WEBCORPUS_CONNECT_TO_ONLY: "true",
      WEBCORPUS_ALLOW_PRIVATE_SUFFIXES: "true",
      WEBCORPUS_CRAWL_DELAY_S: "0",
      WEBCORPUS_EMBEDDINGS: "false",
    };
  };

  test("--render never is the job's mode; a bad mode is a usage error; --help says it", async () => {
    site = serveSite("cli.test", { "/": page("Home", `<p>${PROSE}</p>`) });
    const out = await runCli(["crawl", "cli.test", "--render", "never"], env());
    expect(out.code).toBe(0);
    const summary = JSON.parse(out.stdout) as { render: { mode: string; rendered: number } };
    expect(summary.render).toMatchObject({ mode: "never", rendered: 0 });
    const bad = await runCli(["crawl", "cli.test", "--render", "sometimes"], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--render: must be one of auto, never, always");
    const help = await runCli(["crawl", "--help"], env());
    expect(help.stdout).toContain("--render MODE");
  });
});
