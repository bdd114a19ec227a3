/**
 * The migration files as embedded files, so that a single executable (`bun build --compile`)
 * carries them: drizzle's migrator reads a folder, which `migrationsFolder()` gives it (the
 * source folder when it exists, else a copy written from the embedded files). A test checks
 * that every file drizzle-kit generated is listed here: add a new migration's .sql below.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import m0000 from "./migrations/0000_initial.sql" with { type: "file" };
import m0001 from "./migrations/0001_chunks.sql" with { type: "file" };
import m0002 from "./migrations/0002_vectors.sql" with { type: "file" };
import m0003 from "./migrations/0003_vector_wanted.sql" with { type: "file" };
import journal from "./migrations/meta/_journal.json";

/** Relative path in the migrations folder → where the embedded copy is. */
export const MIGRATION_FILES: Readonly<Record<string, string>> = {
  "0000_initial.sql": m0000,
  "0001_chunks.sql": m0001,
  "0002_vectors.sql": m0002,
  "0003_vector_wanted.sql": m0003,
};

const SOURCE = new URL("./migrations", import.meta.url).pathname;

/** A folder holding the migrations, and how to let go of it once they are applied. */
export function migrationsFolder(): { path: string; dispose(): void } {
  if (existsSync(join(SOURCE, "meta", "_journal.json"))) return { path: SOURCE, dispose() {} };
  const dir = mkdtempSync(join(tmpdir(), "webcorpus-migrations-"));
  mkdirSync(join(dir, "meta"));
  writeFileSync(join(dir, "meta", "_journal.json"), JSON.stringify(journal));
  for (const [name, path] of Object.entries(MIGRATION_FILES)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), readFileSync(path));
  }
  return { path: dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
