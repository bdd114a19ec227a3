/** The single executable embeds every migration drizzle-kit generated. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATION_FILES, migrationsFolder } from "../../../src/db/migration-files.ts";

const FOLDER = join(import.meta.dir, "../../../src/db/migrations");

test("every .sql migration and every journal entry is embedded", () => {
  const files = readdirSync(FOLDER)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  expect(Object.keys(MIGRATION_FILES).sort()).toEqual(files);
  const journal = JSON.parse(readFileSync(join(FOLDER, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  expect(journal.entries.map((e) => `${e.tag}.sql`).sort()).toEqual(files);
  for (const [name, path] of Object.entries(MIGRATION_FILES)) {
    expect(readFileSync(path, "utf8")).toBe(readFileSync(join(FOLDER, name), "utf8"));
  }
});

test("from source, the migrations folder is the source folder", () => {
  const folder = migrationsFolder();
  expect(folder.path).toBe(FOLDER);
  folder.dispose();
  expect(readdirSync(FOLDER).length).toBeGreaterThan(0);
});
