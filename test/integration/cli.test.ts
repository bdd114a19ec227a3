/** The command line, as a user runs it: keys, settings checked at start, serve over a socket. */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/app.ts";
import { CLI, cliEnv, freePort, runCli } from "../helpers/cli.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

test("keys create prints the key alone; list never shows it; revoke; names are not reused", async () => {
  const env = { WEBCORPUS_DATA_DIR: dataDir() };
  const created = await runCli(["keys", "create", "ops"], env);
  expect(created.code).toBe(0);
  const key = created.stdout.trim();
  expect(created.stdout).toBe(`${key}\n`);
  expect(key).toMatch(/^wck_[A-Za-z0-9_-]{43}$/);
  const listed = await runCli(["keys", "list"], env);
  expect(listed.stdout).toContain("ops\t");
  expect(listed.stdout).not.toContain(key);
  expect(listed.stdout).toContain(key.slice(0, 10));
  const twice = await runCli(["keys", "create", "ops"], env);
  expect(twice.code).toBe(2);
  expect(twice.stderr).toContain("exists already");
  expect((await runCli(["keys", "revoke", "ops"], env)).code).toBe(0);
  expect((await runCli(["keys", "list"], env)).stdout).toContain("revoked");
  expect((await runCli(["keys", "revoke", "ops"], env)).code).toBe(1);
  const again = await runCli(["keys", "create", "ops"], env);
  expect(again.code).toBe(2);
  expect(again.stderr).toContain("revoked; names are not reused");
  const tab = await runCli(["keys", "create", "a\tb"], env);
  expect(tab.code).toBe(2);
  expect(tab.stderr).toContain("control characters");
});

test("a bad setting stops every command with one line naming it, before anything is written", async () => {
  const dir = dataDir();
  const env = {
    WEBCORPUS_DATA_DIR: dir,
    WEBCORPUS_PORT: "eighty",
    WEBCORPUS_WORKER_JOBS: "0",
    WEBCORPUS_PUBLICREADS: "false",
  };
  for (const args of [["keys", "list"], ["serve"]]) {
    const out = await runCli(args, env);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(
      'error: WEBCORPUS_PORT: must be an integer from 1 to 65535 (got "eighty")',
    );
    expect(out.stderr).toContain("error: WEBCORPUS_WORKER_JOBS: must be an integer from 1 to 64");
    expect(out.stderr).toContain("did you mean WEBCORPUS_PUBLIC_READS?");
    expect(out.stderr).not.toContain("    at ");
    expect(existsSync(join(dir, "webcorpus.db"))).toBe(false);
  }
  const pg = await runCli(["serve"], {
    WEBCORPUS_DATA_DIR: dir,
    WEBCORPUS_DATABASE_URL: "postgresql://u@localhost/w",
  });
  expect(pg.code).toBe(2);
  expect(pg.stderr).toContain("PostgreSQL backend is not built yet");
  // Only the int8 model ships: fp32 without its exported graph stops every command at start.
  for (const args of [["keys", "list"], ["crawl", "example.com"], ["serve"]]) {
    const fp32 = await runCli(args, { WEBCORPUS_DATA_DIR: dir, WEBCORPUS_EMBED_VARIANT: "fp32" });
    expect(fp32.code).toBe(2);
    expect(fp32.stderr).toStartWith(
      "error: WEBCORPUS_EMBED_VARIANT: fp32 needs model-fp32.onnx, which is not shipped",
    );
    expect(fp32.stderr).toContain("export-model.ts --fp32");
    expect(fp32.stderr).not.toContain("    at ");
    expect(existsSync(join(dir, "webcorpus.db"))).toBe(false);
  }
});

test("settings come from .env too, and a .env that is not UTF-8 is one line", async () => {
  const cwd = dataDir();
  writeFileSync(join(cwd, ".env"), "WEBCORPUS_PORT=eighty\n");
  const out = await runCli(["keys", "list"], { WEBCORPUS_DATA_DIR: join(cwd, "data") }, cwd);
  expect(out.code).toBe(2);
  expect(out.stderr).toContain("WEBCORPUS_PORT");
  writeFileSync(join(cwd, ".env"), Buffer.from([0x57, 0x45, 0xff, 0xfe, 0x0a]));
  const bad = await runCli(["keys", "list"], { WEBCORPUS_DATA_DIR: join(cwd, "data") }, cwd);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain(".env is not UTF-8 text");
});

test("unknown commands and flags are usage errors", async () => {
  const env = { WEBCORPUS_DATA_DIR: dataDir() };
  const unknown = await runCli(["frobnicate"], env);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('unknown command "frobnicate"');
  const flag = await runCli(["keys", "list", "--nope"], env);
  expect(flag.code).toBe(2);
  expect((await runCli(["serve", "--port", "0"], env)).stderr).toContain(
    "not a port from 1 to 65535",
  );
  expect((await runCli(["serve", "--host", " "], env)).stderr).toContain("every interface");
});

test("serve answers over a real socket, refuses writes without a key, and stops on SIGTERM", async () => {
  const dir = dataDir();
  const key = (await runCli(["keys", "create", "me"], { WEBCORPUS_DATA_DIR: dir })).stdout.trim();
  const port = freePort();
  const proc = Bun.spawn(["bun", CLI, "serve", "--port", String(port)], {
    env: cliEnv({ WEBCORPUS_DATA_DIR: dir, WEBCORPUS_WORKER_PROCESSES: "1" }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (let i = 0; i < 100 && !up; i++) {
      up = await fetch(`${base}/api/openapi.json`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await Bun.sleep(100);
    }
    expect(up).toBe(true);
    const body = JSON.stringify({ domain: "example.com", budget: 5 });
    const headers = { "content-type": "application/json" };
    const anonymous = await fetch(`${base}/api/crawl`, { method: "POST", body, headers });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toStartWith("application/problem+json");
    const keyed = await fetch(`${base}/api/crawl`, {
      method: "POST",
      body,
      headers: { ...headers, authorization: `Bearer ${key}` },
    });
    expect(keyed.status).toBe(202);
    const head = await fetch(`${base}/api/content`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-webcorpus-version")).toBeTruthy();
  } finally {
    proc.kill("SIGTERM");
  }
  expect(await proc.exited).toBe(0);
  const stderr = await new Response(proc.stderr).text();
  expect(stderr).toContain("SIGTERM: stopping");
  // The start-up line: one worker in the singular, and where Swagger UI and MCP are.
  expect(stderr).toContain("; 1 crawl worker)");
  expect(stderr).toContain(`${base}/api/docs`);
  expect(stderr).toContain(`${base}/api/mcp`);
});

test("--help after a command prints that command's usage; an unknown option shows it too", async () => {
  const env = { WEBCORPUS_DATA_DIR: dataDir() };
  for (const command of ["serve", "keys", "shelves", "crawl", "inspect", "verify"]) {
    const help = await runCli([command, "--help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`usage: webcorpus ${command}`);
    expect(help.stderr).toBe("");
  }
  const top = await runCli(["--help"], env);
  expect(top.code).toBe(0);
  expect(top.stderr).toBe("");
  for (const command of ["serve", "crawl", "inspect", "keys", "shelves", "verify"])
    expect(top.stdout).toMatch(new RegExp(`^  ${command} +\\S.{10,}$`, "m"));
  expect(top.stdout).toMatch(/^ +--version +\S.{5,}$/m);
  const bad = await runCli(["crawl", "example.com", "--bogus"], env);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--bogus");
  expect(bad.stderr).toContain("usage: webcorpus crawl DOMAIN");
});

test("every command's --help explains each of its options in a line of its own", async () => {
  const env = { WEBCORPUS_DATA_DIR: dataDir() };
  for (const command of ["serve", "keys", "shelves", "crawl", "inspect", "verify"]) {
    const help = await runCli([command, "--help"], env);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe("");
    const usage = help.stdout.split("\n\n")[0] ?? "";
    const options = new Set([...usage.matchAll(/--[a-z-]+/g)].map((m) => m[0]));
    expect(options.size).toBeGreaterThan(0);
    for (const option of [...options, "--help"]) {
      // "  --budget N     most pages to fetch …": the option, its value, then what it does.
      expect({ command, option, line: help.stdout }).toMatchObject({
        line: expect.stringMatching(
          new RegExp(`^ +(-h, )?${option}( [A-Z:|]+)? {2,}\\S.{8,}$`, "m"),
        ),
      });
    }
  }
});
