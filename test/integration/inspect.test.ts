/**
 * `webcorpus inspect URL` and `webcorpus inspect FILE --url URL`: extraction, facets and chunks of
 * a live or a saved page; nothing stored. A live page is fetched through the crawler's fetcher.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { serveSite, page as sitePage } from "../helpers/site.ts";

// Subprocesses: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const PAGES = join(import.meta.dir, "../eval/facets/pages");
const QUICKSTART = join(PAGES, "stackmint-docs-quickstart.html");
const QUICKSTART_URL = "https://stackmint.io/docs/get-started/quickstart";
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function data(): string {
  const dir = tempDir();
  dirs.push(dir);
  return join(dir, "data");
}

async function inspect(args: string[], dataDir = data(), settings: Record<string, string> = {}) {
  const out = await runCli(["inspect", ...args], { WEBCORPUS_DATA_DIR: dataDir, ...settings });
  return {
    ...out,
    json: out.code === 0 ? (JSON.parse(out.stdout) as Record<string, unknown>) : null,
  };
}

test("a docs page: facets as the page read shows them, explained with --explain, links with position", async () => {
  const dir = data();
  const { code, json } = await inspect([QUICKSTART, "--url", QUICKSTART_URL, "--explain"], dir);
  expect(code).toBe(0);
  const page = json as {
    id: string;
    url: string;
    domain: string;
    facets: Record<string, unknown>;
    markdown: string;
    explain: Record<string, string[]>;
    links: { anchor_text: string; position: string }[];
    signals: { template_links: number; index_page: string | null };
    chunks: { index: number; heading: string; tokens: number; vector: boolean; text: string }[];
  };
  expect(page.id).toMatch(/^pg_[0-9a-f]{16}$/);
  expect(page.url).toBe(QUICKSTART_URL);
  expect(page.domain).toBe("stackmint.io");
  expect(Object.keys(page.facets).sort()).toEqual(
    [
      "audience",
      "depth",
      "format",
      "has_code",
      "locale",
      "originality",
      "promotional",
      "published",
      "technicality",
      "topics",
      "type",
      "words",
    ].sort(),
  );
  expect(page.facets).toMatchObject({ type: "docs", format: "tutorial", has_code: true });
  expect(page.markdown).toContain("```javascript");
  expect(page.markdown).toContain("npm install -g stackmint");
  expect(Object.keys(page.explain)).toEqual(
    expect.arrayContaining(["type", "format", "locale", "has_code", "originality"]),
  );
  expect(page.explain.has_code?.join(" ")).toContain("code block");
  expect(page.links.some((l) => l.anchor_text === "Pricing" && l.position === "template")).toBe(
    true,
  );
  expect(page.signals.template_links).toBeGreaterThan(0);
  // The chunks search would index, cut by the model's word pieces as the crawl workers cut them.
  expect(page.chunks.length).toBeGreaterThan(0);
  expect(page.chunks.map((c) => c.index)).toEqual(page.chunks.map((_, i) => i));
  for (const c of page.chunks) {
    expect(c.tokens).toBeGreaterThan(0);
    expect(c.tokens).toBeLessThanOrEqual(256);
    expect(c.vector).toBe(true);
  }
  expect(page.chunks.map((c) => c.text).join("\n")).toContain("npm install -g stackmint");
  expect(page.signals.index_page).toBeNull();
  expect(!existsSync(dir) || readdirSync(dir).length === 0).toBe(true);
});

test("without --explain there is no explain; a header sets the locale; inline code is not code", async () => {
  const { json } = await inspect([
    join(PAGES, "stackmint-changelog.html"),
    "--url",
    "https://stackmint.io/changelog",
    "--header",
    "Content-Language: en-GB",
  ]);
  const page = json as {
    facets: { locale: string; type: string; has_code: boolean };
    markdown: string;
    explain?: unknown;
  };
  expect(page.explain).toBeUndefined();
  expect(page.facets.locale).toBe("en-GB");
  expect(page.facets.type).toBe("changelog");
  expect(page.markdown).toContain("`--role`");
  expect(page.facets.has_code).toBe(false);
});

test("a Spanish page", async () => {
  const { json } = await inspect([
    join(PAGES, "nubix-precios.html"),
    "--url",
    "https://nubix.es/precios",
    "--compact",
  ]);
  expect((json as { facets: { locale: string } }).facets.locale).toStartWith("es");
});

test.each([
  [["/nonexistent/page.html", "--url", "https://a.test/"]],
  [[QUICKSTART, "--url", "ftp://a.test/x"]],
  [[QUICKSTART, "--url", "https://a.test/", "--header", "no-colon"]],
  [[QUICKSTART]],
])("%j exits 2 with a message and prints nothing", async (args) => {
  const { code, stdout, stderr } = await inspect(args);
  expect(code).toBe(2);
  expect(stdout).toBe("");
  expect(stderr.trim().length).toBeGreaterThan(0);
});

test("binary data is refused", async () => {
  const dir = tempDir();
  dirs.push(dir);
  const png = join(dir, "image.png");
  writeFileSync(
    png,
    Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "latin1"), Buffer.alloc(64)]),
  );
  const { code, stderr } = await inspect([png, "--url", "https://a.test/image.png"]);
  expect(code).toBe(2);
  expect(stderr).toContain("binary data, not an HTML page");
});

test("a generated index page: signals.index_page says why the vector policy reads it so", async () => {
  const dir = data();
  const file = join(dir, "..", "genindex.html");
  const entries = Array.from(
    { length: 60 },
    (_, i) => `<li><a href="/docs/term-${i}.html">term ${i}</a></li>`,
  ).join("");
  writeFileSync(
    file,
    `<!doctype html><html lang="en"><head><title>Index</title></head><body><main><h1>Index</h1><ul>${entries}</ul></main></body></html>`,
  );
  const { code, json } = await inspect(
    [file, "--url", "https://docs.example.org/genindex.html"],
    dir,
  );
  expect(code).toBe(0);
  const signals = (json as { signals: { index_page: string | null } }).signals;
  expect(signals.index_page).toContain("60 of 60 lines are short link entries");
});

const LIVE_PAGE = sitePage(
  "Getting started",
  "<h2>Install</h2><p>Run the installer and follow the steps on screen to set up your account.</p><pre><code>curl -sSf https://acme.test/install.sh | sh</code></pre><h2>Configure</h2><p>Open the settings page and choose a region for your data before you invite the team.</p>",
  '<a href="/pricing">Pricing</a>',
);

test("a live URL: fetched through the crawler's fetcher on loopback (connect-to), redirects followed, chunks shown", async () => {
  const site = serveSite("acme.test", {
    "/docs/start": LIVE_PAGE,
    "/start": "redirect:/docs/start",
  });
  try {
    const { code, json, stderr } = await inspect(["http://acme.test/start", "--explain"], data(), {
      WEBCORPUS_CONNECT_TO: site.connectTo(),
      WEBCORPUS_CONNECT_TO_ONLY: "true",
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const page = json as {
      url: string;
      domain: string;
      title: string;
      markdown: string;
      explain: Record<string, string[]>;
      chunks: { heading: string; text: string; tokens: number; vector: boolean }[];
    };
    expect(page.url).toBe("http://acme.test/docs/start");
    expect(page.domain).toBe("acme.test");
    expect(page.title).toBe("Getting started");
    expect(page.markdown).toContain("curl -sSf https://acme.test/install.sh");
    expect(Object.keys(page.explain).length).toBeGreaterThan(0);
    expect(page.chunks.length).toBeGreaterThan(0);
    expect(page.chunks.map((c) => c.text).join("\n")).toContain("choose a region");
    expect(
      page.chunks.some((c) => c.heading.includes("Install") || c.text.includes("Install")),
    ).toBe(true);
    expect(site.hits).toEqual(["/start", "/docs/start"]);
  } finally {
    await site.stop();
  }
});

test("a live URL on loopback without connect-to is refused by the SSRF guard, never fetched", async () => {
  const site = serveSite("acme.test", { "/docs/start": LIVE_PAGE });
  try {
    const { code, stdout, stderr } = await inspect([`http://127.0.0.1:${site.port}/docs/start`]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(
      "refused by the address policy (SSRF guard): address 127.0.0.1 is not public",
    );
    expect(stderr).toContain("not public");
    expect(site.hits).toEqual([]);
  } finally {
    await site.stop();
  }
});

test("a live URL the crawler would not store as a page says why, exit 1", async () => {
  const site = serveSite("acme.test", { "/notes.txt": "plain text" });
  const settings = { WEBCORPUS_CONNECT_TO: site.connectTo(), WEBCORPUS_CONNECT_TO_ONLY: "true" };
  try {
    const missing = await inspect(["http://acme.test/gone"], data(), settings);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("http://acme.test/gone: clientError: HTTP 404");
    const text = await inspect(["http://acme.test/notes.txt"], data(), settings);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("notHtml");
    const both = await inspect(
      ["http://acme.test/x", "--url", "http://acme.test/y"],
      data(),
      settings,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--url is for a saved FILE");
  } finally {
    await site.stop();
  }
});
