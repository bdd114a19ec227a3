import { Database } from "bun:sqlite";
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
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
