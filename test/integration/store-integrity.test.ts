/**
 * A damaged database is refused at start: `serve`, `crawl` (and every command that opens the
 * store) exit with one line saying what is wrong and how to recover, and write nothing.
 */
import { Database } from "bun:sqlite";
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { openStore } from "../../src/db/client.ts";
import { tempDir } from "../helpers/app.ts";
import { freePort, runCli } from "../helpers/cli.ts";
import { testJob, writePage } from "../helpers/pages.ts";

// Real processes: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data dir whose database holds 60 pages with bodies, all of it checkpointed into the file. */
function corpus(): { dir: string; db: string } {
  const dir = tempDir();
  dirs.push(dir);
  const db = join(dir, "webcorpus.db");
  const store = openStore(db);
  const job = testJob(store.write, "example.com");
  for (let i = 0; i < 60; i++) {
    writePage(store.write, job, {
      url: `https://example.com/docs/${i}`,
      title: `Page ${i}`,
      markdown: `# Page ${i}\n\n${"Some words about the product and its parts. ".repeat(40 + i)}`,
    });
  }
  store.write.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  store.close();
  return { dir, db };
}

/** quick_check's answer, or the error it stops with (SQLITE_CORRUPT on a torn b-tree). */
function quickCheck(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .query<{ quick_check: string }, []>("PRAGMA quick_check")
      .all()
      .map((r) => r.quick_check);
  } catch (err) {
    return [String(err)];
  } finally {
    db.close();
  }
}

/** Overwrites `pages` whole pages in the middle of the file with garbage. */
function garble(path: string, pages = 4): void {
  const size = statSync(path).size;
  const pageSize = 4096;
  const start = Math.floor(size / pageSize / 2) * pageSize;
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(pages * pageSize, 0x5a), 0, pages * pageSize, start);
  closeSync(fd);
}

/** The bytes of the database and its WAL (an empty WAL, which SQLite may delete, is none). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["webcorpus.db", "webcorpus.db-wal"]) {
    const path = join(dir, name);
    out[name] =
      existsSync(path) && statSync(path).size > 0
        ? Bun.hash(readFileSync(path)).toString()
        : "none";
  }
  return out;
}

test.each([
  ["serve", ["serve", "--port", String(freePort())]],
  ["crawl", ["crawl", "example.com", "--budget", "3"]],
  ["keys", ["keys", "create", "ops"]],
  ["verify --repair", ["verify", "--repair"]],
])(
  "%s refuses a database damaged mid-file, says how to recover, writes nothing",
  async (_, args) => {
    const { dir, db } = corpus();
    garble(db);
    expect(quickCheck(db)).not.toEqual(["ok"]);
    const before = snapshot(dir);
    const out = await runCli(args, {
      WEBCORPUS_DATA_DIR: dir,
      WEBCORPUS_EMBEDDINGS: "false",
      WEBCORPUS_ALLOW_PRIVATE_SUFFIXES: "true",
    });
    expect(out.code).toBe(1);
    const lines = out.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith(`error: the database ${db} is damaged (quick_check: `);
    expect(lines[0]).toContain("nothing was written to it");
    expect(lines[0]).toContain(`sqlite3 ${db} ".recover"`);
    expect(lines[0]).toContain("restore a backup");
    expect(out.stdout).toBe("");
    expect(snapshot(dir)).toEqual(before);
  },
);

test("a file that is not a database at all is refused the same way", async () => {
  const { dir, db } = corpus();
  const fd = openSync(db, "r+");
  writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
  closeSync(fd);
  const before = snapshot(dir);
  const out = await runCli(["serve", "--port", String(freePort())], {
    WEBCORPUS_DATA_DIR: dir,
    WEBCORPUS_EMBEDDINGS: "false",
  });
  expect(out.code).toBe(1);
  expect(out.stderr).toStartWith(`error: the database ${db} is damaged`);
  expect(out.stderr).toContain(".recover");
  expect(snapshot(dir)).toEqual(before);
});

test("a sound database passes the check and the command runs", async () => {
  const { dir } = corpus();
  const out = await runCli(["keys", "create", "ops"], { WEBCORPUS_DATA_DIR: dir });
  expect(out.code).toBe(0);
  expect(out.stdout).toStartWith("wck_");
});
