/** Runs the real CLI in a child process with a clean environment of our choosing. */
import { join } from "node:path";

export const CLI = join(import.meta.dir, "../../src/cli.ts");

export function cliEnv(settings: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("WEBCORPUS_")) env[k] = v;
  return { ...env, NO_COLOR: "1", ...settings };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  args: string[],
  settings: Record<string, string>,
  cwd?: string,
): Promise<CliResult> {
  const proc = Bun.spawn(["bun", CLI, ...args], {
    env: cliEnv(settings),
    stdout: "pipe",
    stderr: "pipe",
    ...(cwd ? { cwd } : {}),
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** A port nothing listens on right now. */
export function freePort(): number {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = server.port ?? 0;
  void server.stop(true);
  return port;
}
