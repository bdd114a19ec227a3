/** Answers kept while SQLite reports no change (real stores: on disk and in memory). */
import { afterEach, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openStore, type Store } from "../../src/db/client.ts";
import { ReadCache } from "../../src/services/read-cache.ts";
import { tempDir } from "../helpers/app.ts";

const open: Store[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const store of open.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store(where: "disk" | "memory"): Store {
  let path = ":memory:";
  if (where === "disk") {
    const dir = tempDir();
    dirs.push(dir);
    path = join(dir, "webcorpus.db");
  }
  const s = openStore(path);
  open.push(s);
  return s;
}

const write = (s: Store, slug: string) =>
  s.write.$client.run(
    "INSERT INTO collections(slug, name, description, created_at) VALUES (?1, ?1, '', 'x')",
    [slug],
  );

test.each(["disk", "memory"] as const)("a write forgets every answer (%s)", (where) => {
  const s = store(where);
  const cache = new ReadCache(s.read, 1000);
  expect(cache.get("a", () => "first")).toBe("first");
  expect(cache.get("a", () => "second")).toBe("first");
  write(s, "one");
  expect(cache.get("a", () => "third")).toBe("third");
  expect(cache.get("a", () => "fourth")).toBe("third");
});

test("the oldest answers go first past the size, and one too large is never kept", () => {
  const s = store("disk");
  const cache = new ReadCache(s.read, 6);
  cache.get("x", () => "aaa");
  cache.get("y", () => "bbb");
  cache.get("z", () => "ccc"); // x goes
  expect(cache.get("y", () => "new")).toBe("bbb");
  expect(cache.get("z", () => "new")).toBe("ccc");
  expect(cache.get("x", () => "xx")).toBe("xx"); // y goes (3 + 3 + 2 > 6)
  expect(cache.get("y", () => "yy")).toBe("yy");
  expect(cache.get("big", () => "1234567")).toBe("1234567");
  expect(cache.get("big", () => "other")).toBe("other");
});
