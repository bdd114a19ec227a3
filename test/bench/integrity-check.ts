/**
 * What an integrity check at start costs on a large store: builds (once) a database of about
 * `--gb` GiB through the real schema (pages, bodies, chunks), then times `PRAGMA quick_check` and
 * the cheaper checks the start-up could use instead, each from a fresh connection.
 *
 *   bun test/bench/integrity-check.ts [--gb 1] [--dir ~/.cache/webcorpus-test/integrity-bench]
 */
import { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openStore } from "../../src/db/client.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    gb: { type: "string", default: "1" },
    dir: { type: "string", default: join(homedir(), ".cache/webcorpus-test/integrity-bench") },
  },
});
const path = join(values.dir, "webcorpus.db");
const target = Number(values.gb) * 1024 ** 3;

function build(): void {
  const store = openStore(path);
  const db = store.write.$client;
  const word = (i: number) => `w${(i * 2654435761) % 50_000}`;
  const body = (n: number) => Array.from({ length: 1200 }, (_, i) => word(n * 1200 + i)).join(" ");
  const page = db.prepare(
    `INSERT INTO pages (id, url, domain, host, content_hash, text_hash, http_status, fetched_at, indexed_at, words)
     VALUES (?, ?, 'example.com', 'example.com', ?, ?, 200, '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z', 1200)`,
  );
  const bodyRow = db.prepare("INSERT INTO page_bodies (page_id, markdown) VALUES (?, ?)");
  let n = 0;
  while (
    statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0) <
    target
  ) {
    db.transaction(() => {
      for (let i = 0; i < 2000; i++, n++) {
        const id = `pg_${n.toString().padStart(12, "0")}`;
        page.run(id, `https://example.com/p/${n}`, `h${n}`, `t${n}`);
        bodyRow.run(id, body(n));
      }
    })();
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  store.close();
  console.error(`built ${n} pages`);
}

if (!existsSync(path) || statSync(path).size < target * 0.95) build();
console.log(`database: ${path}, ${(statSync(path).size / 1024 ** 3).toFixed(2)} GiB`);

function time(label: string, sql: string): void {
  const db = new Database(path, { readonly: true });
  const start = performance.now();
  const rows = db.query(sql).all();
  const ms = performance.now() - start;
  db.close();
  console.log(
    `${label.padEnd(40)} ${ms.toFixed(0).padStart(7)} ms  ${JSON.stringify(rows).slice(0, 60)}`,
  );
}

for (let round = 0; round < 2; round++) {
  time("PRAGMA quick_check", "PRAGMA quick_check");
  time("PRAGMA quick_check(1)", "PRAGMA quick_check(1)");
  time("PRAGMA integrity_check", "PRAGMA integrity_check");
  time("quick_check of small tables only", "PRAGMA quick_check(meta)");
  time("schema read (sqlite_schema)", "SELECT count(*) FROM sqlite_schema");
}
