/**
 * Real chunk texts for the search benchmarks: the Debian doc sites (Python, PostgreSQL, the
 * Debian handbook in 26 languages) cut at headings and paragraphs into chunks of at most ~200
 * words, each with its heading path. A stand-in for the real chunker (not on this branch):
 * good enough for index size and latency. Cached as JSON lines under the OS temp dir.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const DOC_ROOT = "/work/cache/root/usr/share/doc";
const SITES = [
  { dir: "python3.11/html", locale: "en" },
  { dir: "postgresql-doc-15/html", locale: "en" },
  { dir: "debian-handbook/html", locale: null },
] as const;
const MAX_WORDS = 200;

export interface BenchChunk {
  readonly page: string;
  readonly title: string;
  readonly locale: string;
  readonly heading: string;
  readonly text: string;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decode(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&(#x?[0-9a-f]+|\w+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const code =
          e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000
          ? String.fromCodePoint(code)
          : " ";
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

function* htmlFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false }); // dangling symlinks to other packages
    if (stat?.isDirectory()) yield* htmlFiles(path);
    else if (stat && name.endsWith(".html")) yield path;
  }
}

/** Chunks of one page: heading path per block, paragraphs merged up to MAX_WORDS. */
export function chunkPage(html: string): {
  title: string;
  chunks: { heading: string; text: string }[];
} {
  const title = decode(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "");
  const body = (/<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html).replace(
    /<(script|style|nav|header|footer)\b[\s\S]*?<\/\1>/gi,
    " ",
  );
  const path: string[] = [];
  const chunks: { heading: string; text: string }[] = [];
  let words: string[] = [];
  const flush = () => {
    if (words.length >= 5)
      chunks.push({ heading: path.filter(Boolean).join(" > "), text: words.join(" ") });
    words = [];
  };
  const block = /<(h[1-6]|p|pre|li|td|dt|dd)\b[^>]*>([\s\S]*?)<\/\1>/gi;
  for (const m of body.matchAll(block)) {
    const tag = (m[1] as string).toLowerCase();
    const text = decode(m[2] as string);
    if (!text) continue;
    if (tag[0] === "h") {
      flush();
      const level = Number(tag[1]);
      path.length = level - 1;
      path[level - 1] = text.replace(/¶$/, "").trim().slice(0, 120);
      continue;
    }
    const add = text.split(" ");
    if (words.length + add.length > MAX_WORDS) flush();
    for (let i = 0; i < add.length; i += MAX_WORDS) {
      words.push(...add.slice(i, i + MAX_WORDS));
      if (words.length >= MAX_WORDS) flush();
    }
  }
  flush();
  return { title, chunks };
}

/** Every chunk of the three sites, in a fixed order (cached after the first call). */
export function benchChunks(): BenchChunk[] {
  const cacheDir = join(tmpdir(), "webcorpus-bench");
  const cache = join(cacheDir, "chunks-v1.jsonl");
  if (existsSync(cache)) {
    return readFileSync(cache, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as BenchChunk);
  }
  const out: BenchChunk[] = [];
  for (const site of SITES) {
    const root = join(DOC_ROOT, site.dir);
    for (const file of htmlFiles(root)) {
      const rel = relative(root, file);
      const locale = site.locale ?? rel.split("/")[0] ?? "en";
      const { title, chunks } = chunkPage(readFileSync(file, "utf8"));
      for (const c of chunks) out.push({ page: `${site.dir}/${rel}`, title, locale, ...c });
    }
  }
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cache, `${out.map((c) => JSON.stringify(c)).join("\n")}\n`);
  return out;
}

export { prng as random } from "../helpers/prng.ts";

/** A random unit vector (uniform components, normalised: cheap, and the scan costs the same). */
export function unitVector(rand: () => number, dim = 384): Float32Array {
  const v = new Float32Array(dim);
  let norm = 0;
  for (let i = 0; i < dim; i++) {
    const x = rand() * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < dim; i++) v[i] = (v[i] as number) * inv;
  return v;
}

if (import.meta.main) {
  const t = performance.now();
  const chunks = benchChunks();
  const words = chunks.reduce((n, c) => n + c.text.split(" ").length, 0);
  const pages = new Set(chunks.map((c) => c.page)).size;
  console.log(
    `${chunks.length} chunks from ${pages} pages, ${(words / chunks.length).toFixed(0)} words and ${(chunks.reduce((n, c) => n + c.text.length, 0) / chunks.length).toFixed(0)} chars a chunk, ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}
