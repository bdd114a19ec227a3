/** `webcorpus inspect FILE --url URL`: extraction and facets of a saved page; nothing stored. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";

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

async function inspect(args: string[], dataDir = data()) {
  const out = await runCli(["inspect", ...args], { WEBCORPUS_DATA_DIR: dataDir });
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
