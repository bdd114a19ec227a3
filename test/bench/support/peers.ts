/**
 * The crawl benchmark's yardsticks, installed on demand: Scrapy (PyPI, in a venv under
 * /work/cache/venv-scrapy) for `scrapy bench`, its do-nothing spider against its own loopback
 * server, a figure of how fast this machine is right now; Crawlee (npm, into a temp dir, never a
 * project dependency) for CheerioCrawler on the doc site.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SCRAPY_VENV = process.env.BENCH_SCRAPY_VENV ?? "/work/cache/venv-scrapy";
export const CRAWLEE_VERSION = "3.18.1";

function sh(cmd: string[], cwd?: string): void {
  const out = Bun.spawnSync(cmd, { ...(cwd ? { cwd } : {}), stdout: "pipe", stderr: "pipe" });
  if (out.exitCode !== 0)
    throw new Error(`${cmd.join(" ")} failed:\n${out.stderr.toString().slice(-2000)}`);
}

/** The `scrapy` executable, its venv made and Scrapy installed first when missing. */
export function ensureScrapy(): string {
  const scrapy = join(SCRAPY_VENV, "bin", "scrapy");
  if (existsSync(scrapy)) return scrapy;
  process.stderr.write(`installing scrapy into ${SCRAPY_VENV}\n`);
  sh(["python3", "-m", "venv", SCRAPY_VENV]);
  sh([join(SCRAPY_VENV, "bin", "pip"), "install", "-q", "scrapy"]);
  return scrapy;
}

/** Pages/min of `scrapy bench`: responses received over its elapsed time. */
export async function scrapyBench(scrapy: string): Promise<number> {
  const cwd = mkdtempSync(join(tmpdir(), "wc-scrapy-"));
  const proc = Bun.spawn([scrapy, "bench"], { cwd, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  const code = await proc.exited;
  rmSync(cwd, { recursive: true, force: true });
  const log = out + err;
  const count = /'response_received_count': (\d+)/.exec(log)?.[1];
  const elapsed = /'elapsed_time_seconds': ([\d.]+)/.exec(log)?.[1];
  if (code !== 0 || !count || !elapsed)
    throw new Error(`scrapy bench failed (exit ${code}):\n${log.slice(-2000)}`);
  return (Number(count) / Number(elapsed)) * 60;
}

/** A temp dir with crawlee installed and the benchmark's crawl script beside it. */
export function installCrawlee(): string {
  const dir = mkdtempSync(join(tmpdir(), "wc-crawlee-"));
  process.stderr.write(`installing crawlee@${CRAWLEE_VERSION} into ${dir}\n`);
  writeFileSync(
    join(dir, "package.json"),
    '{"name":"bench-crawlee","private":true,"type":"module"}',
  );
  sh(["npm", "install", "--no-audit", "--no-fund", "--silent", `crawlee@${CRAWLEE_VERSION}`], dir);
  copyFileSync(join(import.meta.dir, "crawlee-crawl.mjs"), join(dir, "crawlee-crawl.mjs"));
  return dir;
}
