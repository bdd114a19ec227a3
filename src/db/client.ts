/**
 * The SQLite store: one writer connection, a read connection of its own, WAL, migrations applied
 * at open. bun:sqlite is synchronous, so a connection is only ever used by the thread that
 * opened it; crawl workers that need reads open their own with `openReader`.
 */
import { Database } from "bun:sqlite";
import { closeSync, existsSync, mkdirSync, openSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { migrationsFolder } from "./migration-files.ts";
import * as schema from "./schema.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

function tune(sqlite: Database, readonly: boolean): void {
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA foreign_keys = ON");
  // 64 MiB of page cache: page lists and facet counts stay in memory on corpora of this size.
  sqlite.exec("PRAGMA cache_size = -65536");
  if (!readonly) {
    sqlite.exec("PRAGMA journal_mode = WAL");
    // In WAL mode NORMAL loses at most the last transactions on power loss, never consistency.
    sqlite.exec("PRAGMA synchronous = NORMAL");
  }
}

export interface Store {
  /** The one writer. */
  readonly write: Db;
  /** Reads that must not wait on a write transaction (WAL gives them a snapshot). */
  readonly read: Db;
  readonly path: string;
  close(): void;
}

/** Brings the schema of the database behind `db` up to date. */
function migrated(db: Db): Db {
  const migrations = migrationsFolder();
  try {
    migrate(db, { migrationsFolder: migrations.path });
  } finally {
    migrations.dispose();
  }
  return db;
}

/** Opens (creating when missing) the database at `path` and brings its schema up to date. */
export function openStore(path: string): Store {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const writer = new Database(path, { create: true, strict: true });
  tune(writer, false);
  const write = migrated(drizzle({ client: writer, schema }));
  const reader =
    path === ":memory:" ? writer : new Database(path, { readonly: true, strict: true });
  if (reader !== writer) tune(reader, true);
  const read = reader === writer ? write : drizzle({ client: reader, schema });
  return {
    write,
    read,
    path,
    close() {
      if (reader !== writer) reader.close();
      writer.close();
    },
  };
}

/** What `checkStore` found wrong with a database file: SQLite's own words, first problem first. */
export class DamagedStoreError extends Error {
  override readonly name = "DamagedStoreError";
  constructor(
    readonly path: string,
    readonly problems: readonly string[],
  ) {
    super(`${path} is damaged: ${problems[0] ?? "unknown damage"}`);
  }
}

/** Reads a file front to back so the check after it reads from memory, not at random from disk. */
function readAhead(path: string): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(4 << 20);
    let position = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n <= 0) break;
      position += n;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * `PRAGMA quick_check` of an existing database on a read-only connection, before anything opens
 * it for writing: a damaged file (torn pages, a garbled WAL) is refused rather than written to,
 * and a read-only connection never checkpoints its WAL into the file on close. The file is read
 * in order first: quick_check walks the b-trees and on a cold cache reads the file at random
 * (1.02 GiB: 15 s cold, 0.6-0.8 s warm; read in order first, 1.3 s cold;
 * `bun test/bench/integrity-check.ts`). Throws `DamagedStoreError`; a missing file passes.
 */
export function checkStore(path: string): void {
  if (path === ":memory:" || !existsSync(path)) return;
  let problems: string[];
  try {
    readAhead(path);
    readAhead(`${path}-wal`);
    const db = new Database(path, { readonly: true, strict: true });
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      problems = db
        .query<{ quick_check: string }, []>("PRAGMA quick_check")
        .all()
        .map((row) => row.quick_check);
    } finally {
      db.close();
    }
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // SQLITE_CORRUPT (and its extended codes) and SQLITE_NOTADB: the file is not a sound database.
    if (typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
      throw new DamagedStoreError(path, [(err as Error).message]);
    }
    throw err;
  }
  if (problems.length === 1 && problems[0] === "ok") return;
  throw new DamagedStoreError(path, problems);
}

/** A read-only connection for another thread (crawl workers) on an already migrated database. */
export function openReader(path: string): Db {
  const reader = new Database(path, { readonly: true, strict: true });
  tune(reader, true);
  return drizzle({ client: reader, schema });
}

/** The database is open in another process (a server, a crawl): an exclusive lock was refused. */
export class DatabaseInUseError extends Error {
  override readonly name = "DatabaseInUseError";
}

/**
 * The one connection to an existing database, holding SQLite's exclusive lock until it is closed
 * (`locking_mode = EXCLUSIVE`): no other process can read or write meanwhile, and a process that
 * has it open already makes this throw DatabaseInUseError at once (`webcorpus verify --repair`).
 */
export function openExclusive(path: string): Db {
  const client = new Database(path, { strict: true });
  try {
    client.exec("PRAGMA busy_timeout = 0");
    client.exec("PRAGMA locking_mode = EXCLUSIVE");
    try {
      client.exec("BEGIN EXCLUSIVE");
      client.exec("COMMIT");
    } catch (err) {
      if (String(err).includes("locked") || String(err).includes("busy"))
        throw new DatabaseInUseError(`${path} is open in another process`);
      throw err;
    }
    tune(client, false);
    return migrated(drizzle({ client, schema }));
  } catch (err) {
    client.close();
    throw err;
  }
}
