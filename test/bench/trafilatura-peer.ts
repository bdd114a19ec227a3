/**
 * trafilatura as an outside peer of our extraction: the trafilatura-peer.py source of python-peers.ts run in the
 * venv at $TRAFILATURA_VENV (default /work/cache/venv-trafilatura), made with pip when missing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pythonScript } from "./python-peers.ts";

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

/** trafilatura's text of each page. $TRAFILATURA_CACHE (a file) keeps the result for reruns
 * while tuning: the peer takes minutes on the company pages. */
export function runPeer(pages: readonly PeerPage[]): PeerResult {
  const cache = Bun.env.TRAFILATURA_CACHE;
  const key = pages.map((p) => p.id).join(",");
  if (cache && existsSync(cache)) {
    const cached = JSON.parse(readFileSync(cache, "utf8")) as PeerResult & { key?: string };
    if (cached.key === key) return cached;
  }
  const python = ensureVenv();
  const script = pythonScript("trafilatura-peer.py");
  const result = JSON.parse(run([python, script], JSON.stringify(pages))) as PeerResult;
  if (cache) writeFileSync(cache, JSON.stringify({ ...result, key }));
  return result;
}
