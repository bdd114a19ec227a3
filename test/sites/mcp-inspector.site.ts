/**
 * The reference MCP client, the MCP Inspector's CLI (npm `@modelcontextprotocol/inspector`),
 * against a real server: it lists the tools (its --strict schema lint included) and calls some.
 * The Inspector is installed once with npm into ~/.cache/webcorpus-test/npm (pinned version);
 * later runs reuse it without the network. This is why the test lives in the site suite.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { makeApp, type TestApp } from "../helpers/app.ts";
import { ACME, buildCorpus } from "../helpers/corpus.ts";
import { TOOL_NAMES } from "../helpers/mcp.ts";

// Browsers, subprocesses and real sites: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(120_000);

const VERSION = "2.12.0";
const PREFIX = join(homedir(), ".cache", "webcorpus-test", "npm");
const BIN = join(PREFIX, "node_modules", ".bin", "mcp-inspector");
const MANIFEST = join(PREFIX, "node_modules", "@modelcontextprotocol", "inspector", "package.json");
const TOOLS: string[] = [...TOOL_NAMES];

const installed = () =>
  existsSync(BIN) &&
  existsSync(MANIFEST) &&
  JSON.parse(readFileSync(MANIFEST, "utf8")).version === VERSION;

let api: TestApp;
let base: string;

beforeAll(async () => {
  if (!installed()) {
    mkdirSync(PREFIX, { recursive: true });
    const npm = Bun.spawn(
      [
        "npm",
        "install",
        "--no-audit",
        "--no-fund",
        "--prefix",
        PREFIX,
        `@modelcontextprotocol/inspector@${VERSION}`,
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    const [code, err] = await Promise.all([npm.exited, new Response(npm.stderr).text()]);
    if (code !== 0 || !installed())
      throw new Error(`npm could not install the Inspector: ${err.slice(-800)}`);
  }
  api = makeApp();
  buildCorpus(api.store.write);
  const server = api.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${server.server?.port}`;
}, 600_000);

afterAll(async () => {
  await api?.app.stop(true);
  api?.close();
});

async function inspector(...args: string[]): Promise<{ out: string; err: string }> {
  const proc = Bun.spawn([BIN, "--cli", `${base}/api/mcp`, "--transport", "http", ...args], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, MCP_CATALOG_PATH: join(PREFIX, "catalog.json") },
  });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  expect({ code, err: err.slice(-2000) }).toMatchObject({ code: 0 });
  return { out, err };
}

test("the Inspector lists the thirteen tools and its strict lint finds nothing", async () => {
  const { out, err } = await inspector("--method", "tools/list", "--strict");
  const listed = JSON.parse(out.slice(0, out.lastIndexOf("}") + 1)) as {
    tools: { name: string; inputSchema: { type: string }; outputSchema?: { type: string } }[];
  };
  expect(listed.tools.map((t) => t.name).sort()).toEqual(TOOLS);
  for (const tool of listed.tools) {
    expect(tool.inputSchema.type).toBe("object");
    expect(tool.outputSchema?.type).toBe("object");
  }
  expect(`${out}\n${err}`).not.toContain("Warning:");
});

test("the Inspector calls list_content and get_domain and gets the HTTP API's JSON", async () => {
  const { out } = await inspector(
    "--method",
    "tools/call",
    "--tool-name",
    "list_content",
    "--tool-arg",
    `domain=${ACME}`,
    "--tool-arg",
    "limit=3",
  );
  const result = JSON.parse(out) as { isError?: boolean; structuredContent: unknown };
  expect(result.isError ?? false).toBe(false);
  const http = await (await fetch(`${base}/api/content?domain=${ACME}&limit=3`)).json();
  expect(result.structuredContent).toEqual(http);

  const domain = JSON.parse(
    (
      await inspector(
        "--method",
        "tools/call",
        "--tool-name",
        "get_domain",
        "--tool-arg",
        `domain=${ACME}`,
      )
    ).out,
  ) as { structuredContent: unknown };
  expect(domain.structuredContent).toEqual(
    await (await fetch(`${base}/api/domains/${ACME}`)).json(),
  );
});
