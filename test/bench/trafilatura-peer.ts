/**
 * trafilatura as an outside peer of our extraction: test/bench/trafilatura-peer.py run in the
 * venv at $TRAFILATURA_VENV (default /work/cache/venv-trafilatura), made with pip when missing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

export interface PeerPage {
  readonly id: string;
  /** An HTML file (gzipped when it ends in .gz). */
  readonly path: string;
  readonly url: string;
}

export interface PeerResult {
  readonly version: string;
  /** mode ("default", "precision") → page id → extracted text. */
  readonly modes: Record<string, Record<string, string>>;
  readonly cpuMsPerPage: Record<string, number>;
}

const VENV = Bun.env.TRAFILATURA_VENV ?? "/work/cache/venv-trafilatura";

function run(cmd: string[], stdin?: string): string {
  const p = Bun.spawnSync(cmd, { stdin: stdin === undefined ? "ignore" : Buffer.from(stdin) });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${p.stderr.toString()}`);
  return p.stdout.toString();
}

function ensureVenv(): string {
  const python = join(VENV, "bin", "python");
  if (!existsSync(python)) {
    console.error(`making ${VENV} (python3 -m venv, pip install trafilatura) ...`);
    run(["python3", "-m", "venv", VENV]);
    run([python, "-m", "pip", "install", "-q", "trafilatura", "lxml_html_clean"]);
  }
  return python;
}

export function runPeer(pages: readonly PeerPage[]): PeerResult {
  const python = ensureVenv();
  const script = join(import.meta.dir, "trafilatura-peer.py");
  return JSON.parse(run([python, script], JSON.stringify(pages))) as PeerResult;
}
