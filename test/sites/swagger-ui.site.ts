/**
 * Swagger UI at /api/docs in headless Chromium, on the test corpus with a text search index: it
 * renders offline (every request it makes goes to this server), opens every operation without a
 * resolver error, shows each parameter's description, vocabulary, bounds and default and each
 * error's problem example, and runs the main operations through "Try it out", a write with a key
 * entered in the Authorize dialog.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { type LiveServer, live } from "../helpers/live.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(120_000);

const CHROMIUM = process.env.WEBCORPUS_TEST_CHROMIUM ?? "/usr/bin/chromium";

interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema: {
    default?: unknown;
    enum?: unknown[];
    minimum?: number;
    maximum?: number;
    minLength?: number;
    maxLength?: number;
  };
}
interface Operation {
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

let srv: LiveServer;
let doc: Doc;
let browser: Browser;

beforeAll(async () => {
  // Text search only: the embedding model's speed is not this test's business.
  srv = live({ EMBEDDINGS: "false" });
  await srv.api.attachSearch();
  doc = await srv.json("/api/openapi.json");
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
  await srv?.close();
});

async function openDocs(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${srv.base}/api/docs`);
  await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
  return page;
}

/** Markdown as Swagger UI renders it to text: no code ticks, spaces collapsed. */
const rendered = (markdown: string) => markdown.replace(/`/g, "").replace(/\s+/g, " ").trim();
const text = async (locator: Locator) => (await locator.textContent())?.replace(/\s+/g, " ").trim();
/** The text of an element that may be absent (undefined then, at once). */
const shownText = async (locator: Locator) =>
  (await locator.count()) > 0 ? text(locator.first()) : undefined;

function documentedOperations(): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

/** Each operation block of the page by "METHOD /path". */
async function operationBlocks(page: Page): Promise<Map<string, Locator>> {
  const blocks = new Map<string, Locator>();
  const all = page.locator(".opblock");
  for (let i = 0; i < (await all.count()); i++) {
    const block = all.nth(i);
    const method = await text(block.locator(".opblock-summary-method").first());
    const path = await block.locator(".opblock-summary-path").first().getAttribute("data-path");
    blocks.set(`${method} ${path?.replace(/\u200b/g, "")}`, block);
  }
  return blocks;
}

test("Swagger UI renders from this server alone and lists every operation", async () => {
  const elsewhere: string[] = [];
  const page = await browser.newPage();
  page.on("request", (request) => {
    if (!request.url().startsWith(srv.base)) elsewhere.push(request.url());
  });
  await page.goto(`${srv.base}/api/docs`);
  await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
  const shown = [...(await operationBlocks(page)).keys()].sort();
  expect(shown.length).toBeGreaterThan(20);
  expect(shown).toEqual(documentedOperations());
  expect(elsewhere).toEqual([]);
  await page.close();
});

test("every operation opens without a resolver error and explains every parameter and error", async () => {
  const page = await openDocs();
  const blocks = await operationBlocks(page);
  const faults: string[] = [];
  let params = 0;
  let problems = 0;
  for (const [name, block] of blocks) {
    await block.locator(".opblock-summary").first().click();
    await block.locator(".opblock-body").waitFor({ timeout: 10_000 });
    const [method = "", path = ""] = name.split(" ");
    const op = doc.paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${name} is not in the document`);

    for (const param of op.parameters ?? []) {
      params++;
      const row = block.locator(`tr[data-param-name="${param.name}"][data-param-in="${param.in}"]`);
      const cell = row.locator("td.parameters-col_description");
      const markdown = cell.locator(
        ":scope > .renderedMarkdown:not(.parameter__default):not(.parameter__enum)",
      );
      // Swagger UI renders the rows after the block opens: wait for this one (a fault if never).
      await markdown
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => undefined);
      const description = await shownText(markdown);
      if (!param.description || description !== rendered(param.description)) {
        faults.push(`${name} ${param.name}: description ${JSON.stringify(description)}`);
      }
      const { schema } = param;
      if (schema.default !== undefined) {
        const shown = await shownText(cell.locator(".parameter__default"));
        if (shown !== `Default value : ${schema.default}`) {
          faults.push(`${name} ${param.name}: default ${JSON.stringify(shown)}`);
        }
      }
      if (schema.enum) {
        const shown = await shownText(cell.locator(".parameter__enum"));
        if (shown !== `Available values : ${schema.enum.join(", ")}`) {
          faults.push(`${name} ${param.name}: values ${JSON.stringify(shown)}`);
        }
      }
      const extensions = await cell.locator(".parameter__extension").allTextContents();
      for (const key of ["minimum", "maximum", "minLength", "maxLength"] as const) {
        const bound = schema[key];
        if (bound !== undefined && !extensions.includes(`${key}: ${bound}`)) {
          faults.push(`${name} ${param.name}: ${key} not shown (${extensions.join("; ")})`);
        }
      }
    }

    // Every documented error shows an example of what the server answers, not a skeleton.
    for (const [status, response] of Object.entries(op.responses)) {
      if (!response.content) continue;
      const row = block.locator(`tr.response[data-code="${status}"]`);
      const example = (await shownText(row.locator("pre.example"))) ?? "";
      if (example.includes('"string"')) faults.push(`${name} ${status}: a skeleton example`);
      if (Number(status) < 400) continue;
      const body = (example.startsWith("{") ? JSON.parse(example) : {}) as {
        status?: number;
        code?: string;
        jsonrpc?: string;
      };
      if (body.status === Number(status) && body.code) problems++;
      else if (!(path === "/api/mcp" && body.jsonrpc === "2.0")) {
        faults.push(`${name} ${status}: example ${example.slice(0, 80)}`);
      }
    }
    // Its schema is the Problem model, resolved.
    const internal = block.locator('tr.response[data-code="500"]');
    await internal.locator('button[data-name="model"]').click();
    const model = (await text(internal.locator(".model-box"))) ?? "";
    if (!model.includes("Problem") || !model.includes("detail")) {
      faults.push(`${name} 500: schema ${model.slice(0, 80)}`);
    }
  }
  expect(faults).toEqual([]);
  expect(blocks.size).toBe(documentedOperations().length);
  expect(params).toBeGreaterThan(50);
  expect(problems).toBeGreaterThan(80);
  const page_text = (await page.locator("body").textContent()) ?? "";
  expect(page_text).not.toMatch(/resolver error|could not resolve/i);
  expect(await page.locator(".errors-wrapper").count()).toBe(0);
  expect(page_text).toContain("Values: homepage, product");
  await page.close();
});

/** "Try it out", fill the parameters, "Execute": the status and body shown. */
async function execute(
  block: Locator,
  fill: (block: Locator) => Promise<void>,
): Promise<{ status: string | undefined; body: string }> {
  await block.locator(".opblock-summary").first().click();
  await block.locator(".try-out__btn").click();
  await fill(block);
  await block.locator(".execute").click();
  const status = block.locator(".live-responses-table .response .response-col_status").first();
  await status.waitFor({ timeout: 30_000 });
  const body = block.locator(".live-responses-table .response-col_description .highlight-code pre");
  return { status: await text(status), body: (await body.first().textContent()) ?? "" };
}

test("GET /api/content and GET /api/search run from Try it out", async () => {
  const page = await openDocs();
  const blocks = await operationBlocks(page);

  const content = blocks.get("GET /api/content");
  if (!content) throw new Error("no GET /api/content");
  const list = await execute(content, async (block) => {
    await block.locator('tr[data-param-name="domain"] input').fill("acme.test");
    await block.locator('tr[data-param-name="sort"] select').selectOption("cited");
  });
  expect(list.status).toBe("200");
  const pages = JSON.parse(list.body) as {
    data: { domain: string }[];
    sort: string;
    filters: { applied: Record<string, unknown> };
  };
  expect(pages.data.length).toBeGreaterThan(0);
  expect(new Set(pages.data.map((p) => p.domain))).toEqual(new Set(["acme.test"]));
  expect(pages.sort).toBe("cited");
  expect(pages.filters.applied).toEqual({ domain: ["acme.test"] });

  const search = blocks.get("GET /api/search");
  if (!search) throw new Error("no GET /api/search");
  const found = await execute(search, async (block) => {
    await block.locator('tr[data-param-name="q"] input').fill("guide");
    await block.locator('tr[data-param-name="mode"] select').selectOption("text");
  });
  expect(found.status).toBe("200");
  const hits = JSON.parse(found.body) as { mode: string; data: { title: string }[] };
  expect(hits.mode).toBe("text");
  expect(hits.data.length).toBeGreaterThan(0);
  expect(hits.data[0]?.title).toMatch(/guide/i);
  await page.close();
});

test("POST /api/crawl runs from Try it out with a key entered in the Authorize dialog", async () => {
  const page = await openDocs();
  await page.click(".btn.authorize");
  await page.fill(".auth-container input", srv.api.key);
  await page.click(".auth-btn-wrapper .btn.modal-btn.auth.authorize");
  await page.click(".btn-done, .close-modal");
  const crawl = (await operationBlocks(page)).get("POST /api/crawl");
  if (!crawl) throw new Error("no POST /api/crawl");
  const queued = await execute(crawl, async (block) => {
    await block
      .locator("textarea.body-param__text")
      .fill(JSON.stringify({ domain: "postgresql.org", budget: 50 }));
  });
  expect(queued.status).toBe("202");
  const body = JSON.parse(queued.body) as { job_id: string; state: string; domain: string };
  expect(body).toMatchObject({ state: "queued", domain: "postgresql.org" });
  const shown = crawl.locator(".live-responses-table tr.response .response-col_description");
  const headers = (await text(shown)) ?? "";
  expect(headers).toContain(`location: /api/jobs/${body.job_id}`);
  const jobs = await srv.json("/api/jobs");
  expect(jobs.data.map((j: { id: string }) => j.id)).toContain(body.job_id);
  await page.close();
});
