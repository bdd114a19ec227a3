/**
 * Extracted documents cached on disk for the facet evaluations (training/pool.ts, wcxb-pages.ts):
 * kept while src/extract is unchanged (a hash of its files, subfolders included).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ExtractedDocument } from "../../../src/extract/document.ts";

/** A hash of every file under src/extract: the cache key's extractor part. */
export function extractorHash(): string {
  const dir = join(import.meta.dir, "../../../src/extract");
  const h = createHash("sha1");
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const f of files) h.update(f.slice(dir.length)).update(readFileSync(f));
  return h.digest("hex").slice(0, 16);
}

/** The documents cached under `key` in `file`, or none (no file, or another key). */
export function readDocCache(
  file: string | undefined,
  key: string,
): Map<string, ExtractedDocument> {
  if (!file || !existsSync(file)) return new Map();
  const c = JSON.parse(readFileSync(file, "utf8")) as {
    key: string;
    docs: [string, ExtractedDocument][];
  };
  return c.key === key ? new Map(c.docs) : new Map();
}

export function writeDocCache(
  file: string,
  key: string,
  docs: readonly (readonly [string, ExtractedDocument])[],
): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ key, docs }));
}
