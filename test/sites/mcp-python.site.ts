/**
 * The official MCP Python SDK (PyPI `mcp`) against a real server on the test corpus: its own
 * ClientSession over its streamable HTTP transport initializes, lists the tools and calls every
 * one (test/sites/support/mcp_python_client.py). Its call_tool validates each result's structured
 * content against the tool's outputSchema with jsonschema and raises when the schema is not valid
 * JSON Schema: a `$id` of "#/components/schemas/Problem" in every outputSchema made every call
 * fail there while the Inspector and the TypeScript SDK accepted it. The SDK is installed once
 * into a venv at ~/.cache/webcorpus-test/mcp-python-venv (pinned version); later runs reuse it
 * without the network. `python3 -m venv` needs ensurepip (Debian: apt-get install python3-venv,
 * which .ci/run does).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { ACME, GLOBEX, SHELF } from "../helpers/corpus.ts";
import { type LiveServer, live } from "../helpers/live.ts";
import { TOOL_NAMES } from "../helpers/mcp.ts";
import { article, serveSite, type TestSite } from "../helpers/site.ts";

setDefaultTimeout(120_000);

/** The newest stable `mcp` on PyPI (2.x line; 1.30.0 is the newest 1.x, and fails the same way). */
const VERSION = "2.3.0";
const VENV = join(homedir(), ".cache", "webcorpus-test", "mcp-python-venv");
const PYTHON = join(VENV, "bin", "python");
const SCRIPT = join(import.meta.dir, "support", "mcp_python_client.py");
const TOOLS: string[] = [...TOOL_NAMES];

interface Step {
  tool: string;
  ok: boolean;
  text_chars?: number;
  structured_chars?: number;
  error?: string;
  tools?: string[];
  text?: string;
}

function installedVersion(): string | null {
  if (!existsSync(PYTHON)) return null;
  const proc = Bun.spawnSync(
    [PYTHON, "-c", "import importlib.metadata as m; print(m.version('mcp'))"],
    { stdout: "pipe", stderr: "pipe" },
  );
  return proc.exitCode === 0 ? proc.stdout.toString().trim() : null;
}

async function run(cmd: string[], what: string): Promise<void> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  if (code !== 0)
    throw new Error(`${what} failed (exit ${code}): ${`${out}\n${err}`.slice(-1500)}`);
}

let srv: LiveServer;
/** The site read_url reads, reached through WEBCORPUS_CONNECT_TO. */
let site: TestSite;
let steps: Step[] = [];
let exitCode: number | null = null;
let stderr = "";

beforeAll(async () => {
  if (installedVersion() !== VERSION) {
    if (!existsSync(PYTHON)) {
      mkdirSync(join(VENV, ".."), { recursive: true });
      await run(
        ["python3", "-m", "venv", VENV],
        "python3 -m venv (without ensurepip: apt-get install python3-venv)",
      );
    }
    await run(
      [PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", `mcp==${VERSION}`],
      `pip install mcp==${VERSION}`,
    );
    expect(installedVersion()).toBe(VERSION);
  }
  site = serveSite("initech.test", {
    "/about": article("About Initech", "<p>Initech makes TPS report software.</p>"),
  });
  srv = live({
    EMBEDDINGS: "false",
    CRAWL_RATE_PER_MINUTE: "1000000",
    CONNECT_TO: site.connectTo(),
    CONNECT_TO_ONLY: "true",
  });
  await srv.api.attachSearch();
  const facts = {
    domain: ACME,
    shelf: SHELF,
    job_id: srv.corpus?.acmeJobs[1],
    query: "databases",
    new_domain: "hooli.test",
    shelf_domain: GLOBEX,
    read_url: "http://initech.test/about",
  };
  const proc = Bun.spawn([PYTHON, SCRIPT, `${srv.base}/api/mcp`, JSON.stringify(facts)], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, WEBCORPUS_KEY: srv.api.key },
  });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  exitCode = code;
  stderr = err;
  steps = out
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Step);
}, 600_000);

afterAll(async () => {
  await srv?.close();
  await site?.stop();
});

const failures = () => steps.filter((s) => !s.ok);

test("the Python SDK initializes and lists the thirteen tools", () => {
  // A session that failed to start leaves one step, "session", with the error.
  expect(steps.slice(0, 2)).toMatchObject([
    { tool: "initialize", ok: true },
    { tool: "list_tools", ok: true, tools: TOOLS },
  ]);
});

test("every tool answers the Python SDK: text, and structured content valid against its outputSchema", () => {
  expect(failures()).toEqual([]);
  for (const name of TOOLS) {
    const step = steps.find((s) => s.tool === name);
    expect({ name, ok: step?.ok }).toEqual({ name, ok: true });
    expect(step?.text_chars).toBeGreaterThan(0);
    expect(step?.structured_chars).toBeGreaterThan(2);
  }
  expect({ exitCode, stderr: stderr.slice(-2000) }).toMatchObject({ exitCode: 0 });
});

test("a bad argument comes back to the Python SDK as a tool error naming it", () => {
  const bad = steps.find((s) => s.tool === "bad_argument");
  expect(bad?.ok).toBe(true);
  expect(bad?.text).toContain("limit");
});
