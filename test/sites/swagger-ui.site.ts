/**
 * Swagger UI at /api/docs in headless Chromium: it renders offline (every request it makes goes
 * to this server), lists the operations, and can try a write with a Bearer key.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { type Browser, chromium } from "playwright-core";
import { makeApp, type TestApp } from "../helpers/app.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const CHROMIUM = process.env.WEBCORPUS_TEST_CHROMIUM ?? "/usr/bin/chromium";

let api: TestApp;
let server: ReturnType<TestApp["app"]["listen"]>;
let base: string;
let browser: Browser;

beforeAll(async () => {
  api = makeApp();
  server = api.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${server.server?.port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  api.close();
});

test("Swagger UI renders from this server alone and lists every operation", async () => {
  const page = await browser.newPage();
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(base)) elsewhere.push(request.url());
  });
  await page.goto(`${base}/api/docs`);
  await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
  const paths = await page.$$eval(".opblock-summary-path", (nodes) =>
    nodes.map((n) => n.getAttribute("data-path") ?? n.textContent ?? ""),
  );
  for (const path of [
    "/api/content",
    "/api/content/{page_id}",
    "/api/content/{page_id}.md",
    "/api/search",
    "/api/crawl",
    "/api/jobs/{job_id}",
    "/api/domains/{root_domain}/content.md",
    "/api/collections/{slug}",
  ]) {
    expect(paths.map((p) => p.replace(/\u200b/g, ""))).toContain(path);
  }
  expect(elsewhere).toEqual([]);
  await page.close();
});

test("a write can be tried from Swagger UI with a Bearer key", async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/api/docs`);
  await page.waitForSelector(".btn.authorize", { timeout: 30_000 });
  await page.click(".btn.authorize");
  await page.fill(".auth-container input[type=text], .auth-container input", api.key);
  await page.click(".auth-btn-wrapper .btn.modal-btn.auth.authorize");
  await page.click(".btn-done, .close-modal");
  const op = page.locator("#operations-crawl-postApiCrawl");
  await op.locator(".opblock-summary").click();
  await op.locator(".try-out__btn").click();
  await op
    .locator("textarea.body-param__text")
    .fill(JSON.stringify({ domain: "example.com", budget: 3 }));
  await op.locator(".execute").click();
  const status = op.locator(".live-responses-table .response .response-col_status").first();
  await status.waitFor({ timeout: 30_000 });
  expect((await status.textContent())?.trim()).toBe("202");
  const jobs = (await (await api.get("/api/jobs")).json()) as { data: { domain: string }[] };
  expect(jobs.data.map((j) => j.domain)).toContain("example.com");
  await page.close();
});
