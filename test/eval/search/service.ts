/**
 * The real service in a child process (`bun src/cli.ts serve`) on a loopback port over a data
 * dir, for the search evaluation and benchmarks: the figures come through the HTTP API as a
 * client sees them, with the service's own process (and its memory) apart from the client's.
 */
import { readFileSync } from "node:fs";
import { CLI, cliEnv, freePort, runCli } from "../../helpers/cli.ts";

export type Settings = Record<string, string>;

export interface Service {
  readonly base: string;
  readonly pid: number;
  /** GET `path` with `params`; throws on a status other than 200. */
  json<T>(path: string, params?: Record<string, string | number>): Promise<T>;
  post<T>(path: string, body: unknown, key: string): Promise<T>;
  /** The service process's resident set (VmRSS), bytes. */
  rss(): number;
  /** Lines the service wrote to stderr so far. */
  log(): string[];
  stop(): Promise<void>;
}

const env = (dataDir: string, settings: Settings): Record<string, string> =>
  cliEnv({
    WEBCORPUS_DATA_DIR: dataDir,
    ...Object.fromEntries(Object.entries(settings).map(([k, v]) => [`WEBCORPUS_${k}`, v])),
  });

/** A new read-write API key in the data dir's database. */
export async function createKey(dataDir: string, name: string): Promise<string> {
  const r = await runCli(["keys", "create", name], env(dataDir, {}));
  if (r.code !== 0) throw new Error(`keys create: ${r.stderr}`);
  return r.stdout.trim();
}

export async function startService(
  dataDir: string,
  settings: Settings,
  options: { worker?: boolean; readyTimeoutMs?: number } = {},
): Promise<Service> {
  const port = freePort();
  const args = ["bun", CLI, "serve", "--port", String(port)];
  if (options.worker === false) args.push("--no-worker");
  const proc = Bun.spawn(args, {
    env: env(dataDir, { HOST: "127.0.0.1", ...settings }),
    stdout: "ignore",
    stderr: "pipe",
  });
  const lines: string[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of proc.stderr) {
      rest += decoder.decode(chunk, { stream: true });
      const parts = rest.split("\n");
      rest = parts.pop() ?? "";
      lines.push(...parts);
    }
  })();
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (proc.exitCode !== null) {
      throw new Error(`the service exited (${proc.exitCode}):\n${lines.join("\n")}`);
    }
    try {
      const r = await fetch(`${base}/api/jobs?limit=1`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill();
      throw new Error(`the service did not answer within the timeout:\n${lines.join("\n")}`);
    }
    await Bun.sleep(100);
  }
  const check = async (r: Response, what: string) => {
    if (!r.ok) throw new Error(`${what}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  return {
    base,
    pid: proc.pid,
    async json<T>(path: string, params: Record<string, string | number> = {}) {
      const query = new URLSearchParams(
        Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const url = `${base}${path}${Object.keys(params).length ? `?${query}` : ""}`;
      return (await check(await fetch(url), `GET ${url}`)) as T;
    },
    async post<T>(path: string, body: unknown, key: string) {
      const r = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      return (await check(r, `POST ${path}`)) as T;
    },
    rss() {
      const status = readFileSync(`/proc/${proc.pid}/status`, "utf8");
      const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      return kb ? Number(kb) * 1024 : 0;
    },
    log: () => [...lines],
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 120_000);
      await proc.exited;
      clearTimeout(timer);
    },
  };
}
