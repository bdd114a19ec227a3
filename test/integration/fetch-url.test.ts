/**
 * One URL on demand (POST /api/fetch, MCP read_url): real HTTP on loopback, sites reached through
 * WEBCORPUS_CONNECT_TO as the crawler reaches them; the SSRF guard, robots.txt, the per-key rate
 * limit and bad URLs refused with problems naming what to change.
 */
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { CrawlScheduler } from "../../src/crawl/crawl-scheduler.ts";
import { createKey } from "../../src/services/keys-service.ts";
import { expectInvariant } from "../helpers/crawl.ts";
import { type Json, type LiveServer, live } from "../helpers/live.ts";
import { call, ok } from "../helpers/mcp.ts";
import { article, serveSite, steps, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(60_000);

const PAGE = article(
  "Getting started",
  `<p>Install the agent with one command and choose a region.</p><h2>Install</h2><p>${steps("installing the agent")}</p><pre><code>curl -sSf https://acme.test/install.sh | sh</code></pre>`,
);

const site: TestSite = serveSite("acme.test", {
  "/robots.txt": "User-agent: *\nDisallow: /private\n",
  "/docs/start": PAGE,
  "/old": "redirect:/docs/start",
  "/private/report": article("Private", "<p>Kept out by robots.txt.</p>"),
  "/notes.txt": "plain text",
  "/broken": "status:503:down",
  "/to-private": "redirect:/private/report",
  "/to-loopback": "redirect:http://127.0.0.1/docs/start",
});

let srv: LiveServer;
const settings = {
  CONNECT_TO: site.connectTo(),
  CONNECT_TO_ONLY: "true",
  MAX_RETRIES: "0",
  CONNECT_TIMEOUT_S: "2",
  READ_TIMEOUT_S: "2",
  FETCH_RATE_PER_MINUTE: "1000",
} as const;

beforeAll(() => {
  srv = live(settings, false);
});
afterAll(async () => {
  await srv?.close();
  await site.stop();
});
afterEach(() => {
  site.hits.length = 0;
  site.hitTimes.length = 0;
});

const fetchUrl = (body: unknown, headers: Record<string, string> = {}, server = srv) =>
  server.send("POST", "/api/fetch", body, { ...server.api.auth, ...headers });

async function problemOf(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return (await response.json()) as {
    code: string;
    detail: string;
    errors?: { field: string; message?: string }[];
    [key: string]: unknown;
  };
}

test("a page is fetched, extracted, scored and chunked, and answered as JSON", async () => {
  const r = await fetchUrl({ url: "http://acme.test/docs/start" });
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toContain("application/json");
  const page = (await r.json()) as Json;
  expect(page).toMatchObject({
    id: expect.stringMatching(/^pg_[0-9a-f]{16}$/),
    url: "http://acme.test/docs/start",
    title: "Getting started",
    domain: "acme.test",
    stored: false,
  });
  expect(page.markdown).toContain("curl -sSf https://acme.test/install.sh");
  expect(page.facets.has_code).toBe(true);
  expect(page.facets.words).toBeGreaterThan(20);
  expect(page.chunks.count).toBeGreaterThan(0);
  expect(page.chunks.tokens).toBeGreaterThan(0);
  expect(page.chunks.headings.length).toBe(page.chunks.count);
  expect(site.hits).toEqual(["/robots.txt", "/docs/start"]);
});

test("Accept: text/markdown answers the page as markdown behind a YAML frontmatter", async () => {
  const r = await fetchUrl({ url: "http://acme.test/old" }, { accept: "text/markdown" });
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  const text = await r.text();
  expect(text).toStartWith("---\n");
  // Redirects are followed: the page is the one they lead to.
  expect(text).toContain("url: http://acme.test/docs/start");
  expect(text).toContain("title: Getting started");
  expect(text).toContain("curl -sSf https://acme.test/install.sh");
  expect(site.hits).toContain("/docs/start");
});

test("a URL robots.txt disallows is refused with 451 naming robots.txt, never fetched", async () => {
  const p = await problemOf(await fetchUrl({ url: "http://acme.test/private/report" }), 451);
  expect(p.code).toBe("robots_disallowed");
  expect(p.detail).toContain("robots.txt");
  expect(p.robots_url).toBe("http://acme.test/robots.txt");
  expect(site.hits).not.toContain("/private/report");
  // A redirect into a disallowed path is not followed either.
  const hop = await problemOf(await fetchUrl({ url: "http://acme.test/to-private" }), 451);
  expect(hop.code).toBe("robots_disallowed");
  expect(hop.detail).toContain("http://acme.test/private/report");
  expect(site.hits).not.toContain("/private/report");
});

test("loopback and private addresses are refused by the SSRF guard (400 naming url), never fetched", async () => {
  for (const url of [
    `http://127.0.0.1:${site.port}/docs/start`,
    "http://10.0.0.1/docs/start",
    "http://[::1]/docs/start",
    "http://192.168.1.1/",
  ]) {
    const p = await problemOf(await fetchUrl({ url }), 400);
    expect({ url, code: p.code, field: p.errors?.[0]?.field }).toEqual({
      url,
      code: "invalid_body",
      field: "url",
    });
    expect(p.detail).toContain("SSRF guard");
  }
  expect(site.hits).toEqual([]);
  // A redirect to loopback is refused at its hop.
  const hop = await problemOf(await fetchUrl({ url: "http://acme.test/to-loopback" }), 400);
  expect(hop.errors?.[0]?.field).toBe("url");
  expect(hop.detail).toContain("SSRF guard");
});

test("bad URLs are refused with 400 naming url", async () => {
  for (const url of [
    "ftp://acme.test/file",
    "not a url",
    "http://",
    "/docs/start",
    "javascript:alert(1)",
    `http://acme.test/${"a".repeat(2100)}`,
    "",
  ]) {
    const p = await problemOf(await fetchUrl({ url }), 400);
    expect({ url: url.slice(0, 40), field: p.errors?.[0]?.field }).toEqual({
      url: url.slice(0, 40),
      field: "url",
    });
  }
  for (const body of [{}, { url: 42 }, { url: "http://acme.test/", extra: 1 }]) {
    const p = await problemOf(await fetchUrl(body), 400);
    expect(p.code).toBe("invalid_body");
  }
  expect(site.hits).toEqual([]);
});

test("a site that gives no page is a 502; an answer that is not HTML a 422; never a 500", async () => {
  const missing = await problemOf(await fetchUrl({ url: "http://acme.test/gone" }), 502);
  expect(missing).toMatchObject({
    code: "fetch_failed",
    bucket: "clientError",
    upstream_status: 404,
  });
  expect(missing.detail).toContain("HTTP 404");
  const down = await problemOf(await fetchUrl({ url: "http://acme.test/broken" }), 502);
  expect(down).toMatchObject({ code: "fetch_failed", bucket: "serverError" });
  const text = await problemOf(await fetchUrl({ url: "http://acme.test/notes.txt" }), 422);
  expect(text).toMatchObject({ code: "not_a_page", bucket: "notHtml" });
  // www.acme.test:443 is a closed port: robots.txt gets no answer, and nothing is fetched.
  const closed = await problemOf(await fetchUrl({ url: "https://www.acme.test/" }), 502);
  expect(closed).toMatchObject({
    code: "fetch_failed",
    robots_url: "https://www.acme.test/robots.txt",
  });
  expect(closed.detail).toContain("robots.txt could not be read");
});

test("it needs a key with write access: 401 without, 403 read-only", async () => {
  const none = await fetch(`${srv.base}/api/fetch`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: "http://acme.test/docs/start" }),
  });
  expect(none.status).toBe(401);
  const reader = createKey(srv.api.store.write, "fetch-reader", ["read"]);
  const readOnly = await srv.send(
    "POST",
    "/api/fetch",
    { url: "http://acme.test/docs/start" },
    { Authorization: `Bearer ${reader}` },
  );
  expect(readOnly.status).toBe(403);
  expect(site.hits).toEqual([]);
});

test("fetches are rate-limited per key: 429 with Retry-After; bad URLs cost nothing", async () => {
  const limited = live({ ...settings, FETCH_RATE_PER_MINUTE: "2" }, false);
  try {
    expect((await fetchUrl({ url: "ftp://acme.test/" }, {}, limited)).status).toBe(400);
    expect((await fetchUrl({ url: "http://acme.test/docs/start" }, {}, limited)).status).toBe(200);
    expect((await fetchUrl({ url: "http://acme.test/gone" }, {}, limited)).status).toBe(502);
    const r = await fetchUrl({ url: "http://acme.test/docs/start" }, {}, limited);
    const p = await problemOf(r, 429);
    expect(p.code).toBe("rate_limited");
    expect(p.detail).toContain("2 URL fetches per minute");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another key has its own allowance.
    const other = createKey(limited.api.store.write, "other");
    const second = await fetchUrl(
      { url: "http://acme.test/docs/start" },
      { Authorization: `Bearer ${other}` },
      limited,
    );
    expect(second.status).toBe(200);
  } finally {
    await limited.close();
  }
});

test("MCP read_url: title, URL and facets, then the markdown in parts; it needs a key", async () => {
  const mcp = `${srv.base}/api/mcp`;
  const result = await call(mcp, "read_url", { url: "http://acme.test/docs/start" }, srv.api.auth);
  const part = ok(result);
  expect(part).toMatchObject({
    url: "http://acme.test/docs/start",
    title: "Getting started",
    offset: 0,
    truncated: false,
    next_offset: null,
  });
  expect(part.facets.has_code).toBe(true);
  const text = (result.content[0] as { text: string }).text;
  expect(text).toStartWith("# Getting started\nhttp://acme.test/docs/start");
  expect(text).toContain("Facets: type ");
  expect(text).toContain("curl -sSf https://acme.test/install.sh");

  const clipped = ok(
    await call(
      mcp,
      "read_url",
      { url: "http://acme.test/docs/start", max_chars: 40 },
      srv.api.auth,
    ),
  );
  expect(clipped.truncated).toBe(true);
  expect(clipped.returned_chars).toBeLessThanOrEqual(40);
  expect(clipped.next_offset).toBe(clipped.returned_chars);

  const refused = await call(
    mcp,
    "read_url",
    { url: "http://acme.test/private/report" },
    srv.api.auth,
  );
  expect(refused.isError).toBe(true);
  expect(refused.structuredContent).toMatchObject({ code: "robots_disallowed", status: 451 });

  const ssrf = await call(mcp, "read_url", { url: "http://127.0.0.1/" }, srv.api.auth);
  expect(ssrf.structuredContent).toMatchObject({ code: "invalid_body", status: 400 });

  const anonymous = await call(mcp, "read_url", { url: "http://acme.test/docs/start" });
  expect(anonymous.isError).toBe(true);
  expect(anonymous.structuredContent).toMatchObject({ status: 401 });
});

test("on-demand fetches are paced per host as the crawl paces it (WEBCORPUS_CRAWL_DELAY_S)", async () => {
  const paced = live({ ...settings, CRAWL_DELAY_S: "0.4", ADAPTIVE_DELAY: "false" }, false);
  try {
    const pages = ["/docs/start", "/old", "/docs/start?b", "/docs/start?c"];
    const answers = await Promise.all(
      pages.map((path) => fetchUrl({ url: `http://acme.test${path}` }, {}, paced)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // robots.txt, then five requests (the redirect is one more hop), each 0.4 s after the last.
    expect(site.hits.length).toBe(6);
    const gaps = site.hitTimes.slice(1).map((t, i) => t - (site.hitTimes[i] ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThan(350);
  } finally {
    await paced.close();
  }
});

/** Runs the queued job `id` of `server` to its end with the real scheduler. */
async function runJob(server: LiveServer, id: string) {
  const scheduler = new CrawlScheduler(
    {
      config: server.api.config,
      db: server.api.store.write,
      log: () => {},
    },
    { only: id },
  );
  scheduler.start();
  await scheduler.waitFor(id);
  await scheduler.stop();
}

test("store: true answers at once and queues a one-URL job that stores the page, nothing else", async () => {
  site.pages["/docs/linked"] = article("Linked", "<p>Only linked from the stored page.</p>");
  site.pages["/docs/with-link"] = article(
    "With a link",
    `<p>${steps("storing one page")}</p><a href="/docs/linked">Linked</a>`,
  );
  const url = "http://acme.test/docs/with-link";
  const r = await fetchUrl({ url, store: true });
  expect(r.status).toBe(200);
  const answer = (await r.json()) as Json;
  const jobId = String(answer.job_id);
  expect(jobId).toMatch(/^job_/);
  expect(answer).toMatchObject({ url, stored: false });
  await runJob(srv, jobId);
  const job = (await (await srv.get(`/api/jobs/${jobId}`)).json()) as Json;
  expect(job.state).toBe("completed");
  expectInvariant(job);
  // The one URL, in the index; its link known to the page, not crawled; no sitemap, no home page.
  expect(job.coverage.total).toBe(1);
  expect(job.coverage.buckets.indexed.count).toBe(1);
  expect(site.count("/docs/linked")).toBe(0);
  expect(site.count("/")).toBe(0);
  const page = (await (await srv.get(`/api/content/${answer.id}`)).json()) as Json;
  expect(page).toMatchObject({ url, title: "With a link" });
  // Asked again, the answer says the corpus holds it; the markdown names the new job.
  const again = await fetchUrl({ url, store: true }, { accept: "text/markdown" });
  expect(again.status).toBe(200);
  const text = await again.text();
  expect(text).toMatch(/^---\n/);
  expect(text).toMatch(/\njob_id: job_\w+\n/);
  const second = /job_id: (job_\w+)/.exec(text)?.[1] ?? "";
  // While that job is queued the domain is busy: another store is a 409 naming the job.
  const busy = await problemOf(await fetchUrl({ url, store: true }), 409);
  expect(busy.code).toBe("conflict");
  expect(busy.detail).toContain(second);
  await runJob(srv, second);
  const plain = (await (await fetchUrl({ url })).json()) as Json;
  expect(plain).toMatchObject({ stored: true, job_id: null });
});

test("store: true for a URL whose host is no crawlable domain is a 400 naming store, nothing fetched", async () => {
  const ip = await problemOf(await fetchUrl({ url: "http://93.184.216.34/x", store: true }), 400);
  expect(ip.errors?.[0]?.field).toBe("store");
  expect(ip.detail).toContain("cannot be stored");
  expect(site.hits).toEqual([]);
});
