/**
 * The README and docs say what the code does: no job field that the job view lacks, only the
 * embedding variant that ships, internet access for real sites, and a local-copy recipe that
 * works as written (run here against a loopback server).
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { MODEL_DIR } from "../../src/search/model-files.ts";
import { tempDir } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { PROSE, page, serveSite, type TestSite } from "../helpers/site.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const ROOT = join(import.meta.dir, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => ({ file: f, text: readFileSync(join(ROOT, "docs", f), "utf8") }));
const ALL = [{ file: "README.md", text: README }, ...DOCS];

let site: TestSite | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await site?.stop();
  site = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test("the README is a front page: under 200 lines, with links into docs/ that resolve", () => {
  expect(README.split("\n").length).toBeLessThan(200);
  for (const [, file, anchor] of README.matchAll(/\]\((docs\/[a-z-]+\.md)(?:#([a-z0-9-]+))?\)/g)) {
    const path = join(ROOT, file ?? "");
    expect({ file, exists: existsSync(path) }).toEqual({ file, exists: true });
    if (!anchor) continue;
    const headings = [...readFileSync(path, "utf8").matchAll(/^#+ (.+)$/gm)].map((m) =>
      (m[1] ?? "")
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, "")
        .replace(/ /g, "-"),
    );
    expect({ file, anchor, found: headings.includes(anchor) }).toEqual({
      file,
      anchor,
      found: true,
    });
  }
});

test("no document promises a job `info` field: the job view has none", () => {
  for (const { file, text } of ALL) {
    expect({ file, claim: /job's `info`|`info\.screenshots`|job's info/.exec(text)?.[0] }).toEqual({
      file,
      claim: undefined,
    });
  }
});

test("only the shipped embedding variant is offered as working; fp32 is documented as not shipped", () => {
  expect(existsSync(join(MODEL_DIR, "model.onnx"))).toBe(true);
  expect(existsSync(join(MODEL_DIR, "model-fp32.onnx"))).toBe(false);
  const config = DOCS.find((d) => d.file === "configuration.md")?.text ?? "";
  const row = config.split("\n").find((l) => l.startsWith("| `WEBCORPUS_EMBED_VARIANT`")) ?? "";
  expect(row).toContain("not shipped");
  expect(row).toContain("export-model.ts");
});

test("the README says a real site needs internet access, and its local-copy recipe crawls as written", async () => {
  expect(README).toContain("needs internet access");
  const recipe =
    /WEBCORPUS_CONNECT_TO=(example\.com:80:127\.0\.0\.1:)8080 WEBCORPUS_CONNECT_TO_ONLY=true/.exec(
      README,
    );
  expect(recipe).not.toBeNull();
  expect(README).toContain("a `:80` rule alone switches the crawl to `http://example.com/`");
  site = serveSite("example.com", {
    "/": page("Home", `<p>${PROSE}</p><a href="/docs.html">Docs</a>`),
    "/docs.html": page("Docs", `<p>${PROSE} docs</p>`),
  });
  const dir = tempDir();
  dirs.push(dir);
  // Only the README's rule (its port the test server's): no :443 rule, so no https attempt.
  const out = await runCli(["crawl", "example.com", "--budget", "50"], {
    WEBCORPUS_DATA_DIR: dir,
    WEBCORPUS_CONNECT_TO: `${recipe?.[1]}${site.port}`,
    WEBCORPUS_CONNECT_TO_ONLY: "true",
    WEBCORPUS_CRAWL_DELAY_S: "0",
    WEBCORPUS_EMBEDDINGS: "false",
  });
  expect({ code: out.code, stderr: out.stderr }).toMatchObject({ code: 0 });
  const summary = JSON.parse(out.stdout) as { state: string; coverage: Record<string, number> };
  expect(summary.state).toBe("completed");
  expect(summary.coverage.indexed).toBe(2);
  expect(site.hits).toContain("/docs.html");
});
