import { Database } from "bun:sqlite";
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { openReader, openStore } from "../../src/db/client.ts";
import { tempDir } from "../helpers/app.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshPath(): string {
  const dir = tempDir();
  dirs.push(dir);
  return join(dir, "nested", "webcorpus.db");
}

const REFERENCE_TABLES = [
  "api_keys",
  "assets",
  "chunks",
  "collection_members",
  "collections",
  "domains",
  "job_url_evidence",
  "job_urls",
  "jobs",
  "links",
  "meta",
  "page_bodies",
  "page_history",
  "page_topics",
  "pages",
  "screenshots",
  "sitemaps",
  "template_links",
  "vectors",
];

test("a new database gets every table of the reference, in WAL mode", () => {
  const path = freshPath();
  const store = openStore(path);
  store.close();
  const db = new Database(path, { readonly: true });
  const tables = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
  expect(tables).toEqual(REFERENCE_TABLES);
  expect(db.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode).toBe(
    "wal",
  );
  db.close();
});

test("opening again applies nothing twice and keeps the data", () => {
  const path = freshPath();
  const first = openStore(path);
  first.write.$client.run("INSERT INTO meta(key, value) VALUES ('x', '1')");
  first.close();
  const again = openStore(path);
  expect(
    again.read.$client.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'x'").get()
      ?.value,
  ).toBe("1");
  const migrations = again.read.$client
    .query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations")
    .get();
  expect(migrations?.n).toBe(4);
  again.close();
});

test("the read connections cannot write, and see committed writes", () => {
  const path = freshPath();
  const store = openStore(path);
  const other = openReader(path);
  expect(() => store.read.$client.run("INSERT INTO meta(key, value) VALUES ('y', '1')")).toThrow(
    /readonly/i,
  );
  expect(() => other.$client.run("INSERT INTO meta(key, value) VALUES ('y', '1')")).toThrow(
    /readonly/i,
  );
  store.write.$client.run("INSERT INTO meta(key, value) VALUES ('z', '2')");
  expect(
    other.$client.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'z'").get()
      ?.value,
  ).toBe("2");
  other.$client.close();
  store.close();
});

test("foreign keys hold: a page's body goes with it", () => {
  const store = openStore(freshPath());
  const c = store.write.$client;
  c.run(
    "INSERT INTO pages(id, url, domain, host, content_hash, text_hash, http_status, fetched_at, indexed_at) VALUES ('pg_1', 'http://a.org/', 'a.org', 'a.org', 'h', 't', 200, 'x', 'x')",
  );
  c.run("INSERT INTO page_bodies(page_id, markdown) VALUES ('pg_1', '# A')");
  expect(() => c.run("INSERT INTO page_bodies(page_id, markdown) VALUES ('pg_2', '# B')")).toThrow(
    /FOREIGN KEY/,
  );
  c.run("DELETE FROM pages WHERE id = 'pg_1'");
  expect(c.query<{ n: number }, []>("SELECT count(*) AS n FROM page_bodies").get()?.n).toBe(0);
  store.close();
});

test("migration 0003 keeps old chunks wanting vectors: one embedded before 0002 is still found unstored", () => {
  const path = freshPath();
  // The database as migrations 0000-0002 left it, with a chunk embedded before vectors were
  // kept in SQLite (its vector only in a shard) and one waiting.
  const old = join(path, "..", "migrations-0002");
  const source = join(import.meta.dir, "../../src/db/migrations");
  const journal = JSON.parse(readFileSync(join(source, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  mkdirSync(join(old, "meta"), { recursive: true });
  const kept = journal.entries.filter((e) => e.tag < "0003");
  expect(kept.length).toBe(3);
  writeFileSync(join(old, "meta/_journal.json"), JSON.stringify({ ...journal, entries: kept }));
  for (const e of kept) copyFileSync(join(source, `${e.tag}.sql`), join(old, `${e.tag}.sql`));
  const raw = new Database(path, { create: true });
  migrate(drizzle(raw), { migrationsFolder: old });
  raw.run(
    "INSERT INTO chunks (page_id, idx, text, embedded) VALUES ('pg_old', 0, 'old', 1), ('pg_old', 1, 'waiting', 0)",
  );
  raw.close();

  const store = openStore(path);
  const rows = store.read.$client
    .query<{ idx: number; embedded: number; wanted: number }, []>(
      "SELECT idx, embedded, vector_wanted AS wanted FROM chunks ORDER BY idx",
    )
    .all();
  expect(rows).toEqual([
    { idx: 0, embedded: 1, wanted: 1 },
    { idx: 1, embedded: 0, wanted: 1 },
  ]);
  const unstored = store.read.$client
    .query<{ idx: number }, []>(
      "SELECT idx FROM chunks INDEXED BY chunks_unstored WHERE embedded = 1 AND vector_id IS NULL AND vector_wanted = 1",
    )
    .all();
  expect(unstored).toEqual([{ idx: 0 }]);
  store.close();
});
