/**
 * Shards on disk (a temp data dir per test): upsert, search, filters, snapshots, logs, reload,
 * eviction, and what a crash or a damaged file leaves behind.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testConfig } from "../../src/config.ts";
import type { PageInput } from "../../src/search/shard.ts";
import { openShardRegistry, ShardRegistry } from "../../src/search/shard-registry.ts";
import { searchShards } from "../../src/search/shard-search.ts";

const vec = (seed: number) =>
  Array.from({ length: 384 }, (_, i) => Math.sin(seed * 7.3 + i * 0.37));

function page(pageId: string, texts: string[], over: Partial<PageInput> = {}): PageInput {
  return {
    pageId,
    title: "Guide",
    version: "v1",
    facets: { type: "docs", locale: "en-US", topics: ["devtools"], technicality: 0.7 },
    chunks: texts.map((text, i) => ({
      heading: `Part ${i}`,
      text,
      vector: vec(pageId.length * 100 + i),
    })),
    ...over,
  };
}

let dir: string;
const open = (budget = 2 ** 30) => ShardRegistry.open({ dir, memoryBudgetBytes: budget });
const ids = async (registry: ShardRegistry, domain: string, q: string) =>
  (await registry.shard(domain)).searchText(q, 20).map((h) => h.chunkId);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "wc-shards-test-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("a shard on disk", () => {
  test("upsert, search, snapshot, reload: same hits, stemmed queries still match", async () => {
    const a = await open();
    await a.upsertPages("python.org", [
      page("pg_1", ["Installing packages with pip", "Virtual environments isolate installs"]),
      page("pg_2", ["The json module encodes objects"]),
    ]);
    // A new domain: an empty shard, nothing to rebuild, no marker left for the next start.
    expect(a.health("python.org")).toBe("ok");
    const before = await ids(a, "python.org", "installing");
    expect(before).toEqual(expect.arrayContaining(["pg_1#0", "pg_1#1"]));
    await a.close();
    expect(readdirSync(dir).sort()).toEqual(["python.org.shard"]);

    const b = await open();
    expect(await b.check("python.org")).toBe("ok");
    expect(await ids(b, "python.org", "installing")).toEqual(before);
    expect(await ids(b, "python.org", "installed")).toEqual(before); // the shard tokenizer came back
    expect(b.health("python.org")).toBe("ok");
    expect((await b.shard("python.org")).chunksWithoutVectors()).toEqual([]);
    expect(await b.pageVersions("python.org")).toEqual(
      new Map([
        ["pg_1", "v1"],
        ["pg_2", "v1"],
      ]),
    );
  });

  test("changes since the snapshot come back from the log after a crash (no close)", async () => {
    const a = await open();
    await a.upsertPages("example.com", [page("pg_1", ["alpha"])]);
    await a.markRebuilt("example.com");
    await a.upsertPages("example.com", [page("pg_2", ["beta"]), page("pg_1", ["gamma"])]);
    await a.removePages("example.com", ["pg_2"]);
    await a.setFacets("example.com", "pg_1", {
      type: "blog",
      locale: "fr",
      topics: [],
      technicality: 0.1,
    });
    // The process dies here: nothing flushed, the log was written as changes came.
    const b = await open();
    expect(await ids(b, "example.com", "alpha")).toEqual([]);
    expect(await ids(b, "example.com", "gamma")).toEqual(["pg_1#0"]);
    expect(await ids(b, "example.com", "beta")).toEqual([]);
    const shard = await b.shard("example.com");
    expect(shard.pageFacets("pg_1")).toEqual({
      type: "blog",
      locale: ["fr"],
      topics: [],
      technicality: 0.1,
    });
    expect(b.health("example.com")).toBe("ok");
  });

  test("a snapshot taken while changes arrive loses none of them", async () => {
    const a = await open();
    await a.upsertPages("example.com", [page("pg_1", ["alpha"])]);
    const snapshot = a.snapshot("example.com");
    await a.upsertPages("example.com", [page("pg_2", ["beta"])]);
    await snapshot;
    const b = await open();
    expect(await ids(b, "example.com", "alpha beta")).toEqual(
      expect.arrayContaining(["pg_1#0", "pg_2#0"]),
    );
  });

  test("late vectors, facet changes and re-upserts; dead slots compacted by a snapshot", async () => {
    const a = await open();
    await a.upsertPages("example.com", [
      {
        ...page("pg_1", ["first chunk", "second chunk"]),
        chunks: [
          { heading: "", text: "first chunk" },
          { heading: "", text: "second chunk" },
        ],
      },
    ]);
    const shard = await a.shard("example.com");
    expect(shard.chunksWithoutVectors()).toEqual(["pg_1#0", "pg_1#1"]);
    expect(shard.searchVector(vec(5), 5)).toEqual([]);
    await a.setVectors("example.com", [{ chunkId: "pg_1#1", vector: vec(5) }]);
    expect(shard.searchVector(vec(5), 5).map((h) => h.chunkId)).toEqual(["pg_1#1"]);
    for (let i = 0; i < 6; i++)
      await a.upsertPages("example.com", [page("pg_1", [`round ${i}`, "chunk"])]);
    expect(shard.deadSlots).toBe(12);
    await a.snapshot("example.com");
    const compacted = await a.shard("example.com");
    expect(compacted.deadSlots).toBe(0);
    expect(compacted.db.internalDocumentIDStore.internalIdToId).toEqual(["pg_1#0", "pg_1#1"]);
    expect(compacted.searchText("round", 5).map((h) => h.text)).toEqual(["round 5"]);
  });

  test("shards over the memory budget are snapshotted and unloaded, and load again on use", async () => {
    const a = await open(1); // every shard is over budget: only the one in use stays
    await a.upsertPages("one.com", [page("pg_1", ["alpha"])]);
    await a.upsertPages("two.com", [page("pg_2", ["alpha"])]);
    expect(a.loaded()).toEqual(["two.com"]);
    expect(existsSync(join(dir, "one.com.shard"))).toBe(true);
    const hits = await searchShards(a, {
      q: "alpha",
      mode: "text",
      domains: ["one.com", "two.com"],
      limit: 5,
    });
    expect(hits.map((h) => `${h.domain}/${h.chunkId}`).sort()).toEqual([
      "one.com/pg_1#0",
      "two.com/pg_2#0",
    ]);
    expect(a.loaded()).toHaveLength(1);
  });
});

describe("damage and crashes", () => {
  async function written(): Promise<Uint8Array> {
    const a = await open();
    await a.upsertPages("example.com", [page("pg_1", ["alpha"]), page("pg_2", ["beta"])]);
    await a.markRebuilt("example.com");
    await a.close();
    return new Uint8Array(readFileSync(join(dir, "example.com.shard")));
  }

  test("a temp file cut short by a crash never replaces the snapshot, and is removed", async () => {
    const good = await written();
    const temp = join(dir, "example.com.shard.tmp-4242-1");
    writeFileSync(temp, good.subarray(0, good.length / 2));
    const b = await open();
    expect(existsSync(temp)).toBe(false);
    expect(await ids(b, "example.com", "alpha beta")).toHaveLength(2);
    expect(b.health("example.com")).toBe("ok");
  });

  test("a corrupt snapshot is detected, set aside, and marked for a rebuild until one is done", async () => {
    const good = await written();
    const bad = good.slice();
    bad[Math.floor(bad.length * 0.7)] = (bad[Math.floor(bad.length * 0.7)] as number) ^ 0xff;
    writeFileSync(join(dir, "example.com.shard"), bad);
    const b = await open();
    expect(await b.check("example.com")).toBe("corrupt");
    expect(await ids(b, "example.com", "alpha")).toEqual([]);
    expect(b.health("example.com")).toBe("corrupt");
    expect(existsSync(join(dir, "example.com.shard.corrupt"))).toBe(true);
    expect(await b.check("example.com")).toBe("corrupt"); // the marker keeps the verdict
    await b.upsertPages("example.com", [page("pg_1", ["alpha"]), page("pg_2", ["beta"])]);
    await b.markRebuilt("example.com");
    const c = await open();
    expect(await c.check("example.com")).toBe("ok");
    expect(await ids(c, "example.com", "alpha beta")).toHaveLength(2);
  });

  test("a snapshot cut short is corrupt; a deleted one is missing", async () => {
    const good = await written();
    writeFileSync(join(dir, "example.com.shard"), good.subarray(0, good.length - 10));
    expect(await (await open()).check("example.com")).toBe("corrupt");
    rmSync(dir, { recursive: true, force: true });
    await written();
    const a = await open();
    await a.upsertPages("example.com", [page("pg_3", ["gamma"])]); // logged after the snapshot
    rmSync(join(dir, "example.com.shard"));
    const b = await open();
    expect(await b.check("example.com")).toBe("missing");
    expect(await ids(b, "example.com", "gamma")).toEqual(["pg_3#0"]);
    expect(b.health("example.com")).toBe("missing");
  });

  test("a snapshot of another format version is outdated", async () => {
    const good = await written();
    const other = good.slice();
    other[12] = 99; // the tokenizer version, outside the checksummed body
    writeFileSync(join(dir, "example.com.shard"), other);
    const b = await open();
    expect(await b.check("example.com")).toBe("outdated");
    await b.shard("example.com");
    expect(b.health("example.com")).toBe("outdated");
  });

  test("a log ending in a torn record replays up to it and says so", async () => {
    await written();
    const a = await open();
    await a.upsertPages("example.com", [page("pg_3", ["gamma"])]);
    const log = readdirSync(dir).find((n) => n.endsWith(".log")) as string;
    appendFileSync(join(dir, log), new Uint8Array([200, 0, 0, 0, 1, 2, 3]));
    const b = await open();
    expect(await ids(b, "example.com", "gamma alpha")).toHaveLength(2);
    expect(b.health("example.com")).toBe("torn");
    expect(await b.check("example.com")).toBe("torn");
  });

  test("domain names are checked before they become file names", async () => {
    const a = await open();
    for (const bad of ["../etc", "a/b", "", "UPPER.com", "x..y"]) {
      await expect(a.shard(bad)).rejects.toThrow(RangeError);
    }
  });
});

test("a page with a bad vector changes nothing and is not logged", async () => {
  const dir2 = mkdtempSync(join(tmpdir(), "wc-shards-test-"));
  try {
    const a = await ShardRegistry.open({ dir: dir2, memoryBudgetBytes: 2 ** 30 });
    await a.upsertPages("example.com", [page("pg_1", ["alpha", "beta"])]);
    const bad = page("pg_1", ["gamma", "delta"]);
    const chunks = [
      bad.chunks[0],
      { heading: "", text: "delta", vector: [1, 2, 3] },
    ] as PageInput["chunks"];
    await expect(a.upsertPages("example.com", [{ ...bad, chunks }])).rejects.toThrow(RangeError);
    expect(await ids(a, "example.com", "alpha beta gamma")).toEqual(["pg_1#0", "pg_1#1"].sort());
    const b = await ShardRegistry.open({ dir: dir2, memoryBudgetBytes: 2 ** 30 });
    expect((await ids(b, "example.com", "alpha beta gamma")).sort()).toEqual(["pg_1#0", "pg_1#1"]);
  } finally {
    rmSync(dir2, { recursive: true, force: true });
  }
});

test("the service's registry lives in <data dir>/shards with the configured budget", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "wc-data-"));
  try {
    const config = testConfig({ DATA_DIR: dataDir, SHARD_MEMORY_MB: "64" });
    expect(config.shardMemoryMb).toBe(64);
    const registry = await openShardRegistry(config);
    expect(registry.dir).toBe(join(dataDir, "shards"));
    expect(registry.memoryBudgetBytes).toBe(64 * 2 ** 20);
    await registry.upsertPages("python.org", [page("pg_1", ["hello"])]);
    await registry.close();
    expect(readdirSync(join(dataDir, "shards")).sort()).toEqual(["python.org.shard"]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
