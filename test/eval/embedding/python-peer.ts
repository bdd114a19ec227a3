/**
 * Runs a Python program kept as source text (the repository holds no Python file): writes it to a
 * temporary file and runs it with `--python PATH` (or the default interpreter), passing on the
 * other command-line arguments and the terminal; returns its exit code.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function pythonPeer(name: string, source: string, defaultPython: string): number {
  const args = process.argv.slice(2);
  const at = args.indexOf("--python");
  const python = at >= 0 ? (args[at + 1] ?? defaultPython) : defaultPython;
  if (at >= 0) args.splice(at, 2);
  const path = join(mkdtempSync(join(tmpdir(), "webcorpus-peer-")), name);
  writeFileSync(path, source);
  const proc = Bun.spawnSync([python, path, ...args], {
    stdio: ["inherit", "inherit", "inherit"],
    env: { ...process.env, HF_HUB_OFFLINE: "1" },
  });
  return proc.exitCode ?? 1;
}
