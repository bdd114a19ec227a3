/**
 * What the shard components rely on in Orama 3.1.18, and the defaults they replace. A failure
 * here after an Orama upgrade means a component must be checked against the new version.
 */
import { describe, expect, test } from "bun:test";
import { create, getByID, insert, search } from "@orama/orama";
import oramaPackage from "@orama/orama/package.json" with { type: "json" };
import { persist, restore } from "@orama/plugin-data-persistence";
import { ChunkFilter, ChunkIndexStore, createChunkIndex } from "../../../src/search/chunk-index.ts";
import { createChunkStore } from "../../../src/search/chunk-store.ts";
import { Shard } from "../../../src/search/shard.ts";
import {
  createShardDb,
  docsOf,
  INDEX_CONFIG,
  ORAMA_VERSION,
  SHARD_SCHEMA,
} from "../../../src/search/shard-schema.ts";
import { createShardTokenizer } from "../../../src/search/tokenizer.ts";

const vec = (seed: number) =>
  Array.from({ length: 384 }, (_, i) => Math.sin(seed * 7.3 + i * 0.37));
const FACETS = { type: "docs", locale: "en-US", topics: ["devtools"], technicality: 0.7 } as const;

function page(
  pageId: string,
  texts: string[],
  title = "Guide",
): Parameters<Shard["upsertPage"]>[0] {
  return {
    pageId,
    title,
    facets: FACETS,
    chunks: texts.map((text, i) => ({
      heading: `H${i}`,
      text,
      vector: vec(texts.length * 10 + i),
    })),
  };
}

test("the installed Orama is the version the components were written for", () => {
  expect(oramaPackage.version).toBe(ORAMA_VERSION);
  expect(ORAMA_VERSION).toBe("3.1.18");
});

describe("Orama calls the components as they expect", () => {
  test("insert: index.insert once per property present, in schema order, page id first", async () => {
    const calls: string[] = [];
    const index = createChunkIndex(INDEX_CONFIG);
    const recording = {
      ...index,
      insert: ((...args: Parameters<typeof index.insert>) => {
        calls.push(args[2]);
        index.insert(...args);
      }) as typeof index.insert,
    };
    const db = create({
      schema: SHARD_SCHEMA,
      sort: { enabled: false },
      components: {
        tokenizer: createShardTokenizer(),
        index: recording,
        documentsStore: createChunkStore(),
      },
    });
    await insert(db, {
      id: "p#0",
      pageId: "p",
      title: "t",
      heading: "h",
      text: "x",
      type: "docs",
      locale: ["en"],
      topics: [],
      technicality: 0.5,
      embedding: vec(1),
    } as never);
    expect(calls).toEqual(Object.keys(SHARD_SCHEMA));
  });

  test("search: `where` goes through searchByWhereClause, its result and no limit reach the index", () => {
    const seen: unknown[] = [];
    const index = createChunkIndex(INDEX_CONFIG);
    const recording = {
      ...index,
      search: ((...args: Parameters<typeof index.search>) => {
        seen.push(args[10]);
        return index.search(...args);
      }) as typeof index.search,
    };
    const db = create({
      schema: SHARD_SCHEMA,
      sort: { enabled: false },
      components: {
        tokenizer: createShardTokenizer(),
        index: recording,
        documentsStore: createChunkStore(),
      },
    });
    const shard = new Shard("example.com", db as never);
    shard.upsertPage(page("p", ["alpha beta", "alpha gamma", "alpha delta"]));
    expect(shard.searchText("alpha", 2, { type: { eq: "docs" } })).toHaveLength(2);
    expect(seen[0]).toBeInstanceOf(ChunkFilter);
    // Orama's search() has no way to hand `limit` to an index: the shard sets queryLimit.
    expect(recording.search.length).toBe(0);
  });

  test("vector search writes embedding = null into each hit's stored document", async () => {
    // Orama's default store: the stored document loses its vector.
    const plain = create({ schema: { text: "string", embedding: "vector[384]" } as const });
    await insert(plain, { id: "a", text: "x", embedding: vec(1) });
    await search(plain, {
      mode: "vector",
      vector: { value: vec(1), property: "embedding" },
      similarity: 0,
    });
    expect(getByID(plain, "a")?.embedding).toBeNull();
    // The chunk store has the field on every chunk, so the write changes nothing.
    const shard = new Shard("example.com");
    shard.upsertPage(page("p", ["one", "two"]));
    const before = docsOf(shard.db).docs.map((d) => d && Object.keys(d));
    expect(shard.searchVector(vec(20), 2)).toHaveLength(2);
    expect(docsOf(shard.db).docs.map((d) => d && Object.keys(d))).toEqual(before);
    expect(before[1]).toEqual(["pageId", "heading", "text", "embedding"]);
  });

  test("the default documents store allocates internal ids on lookups; the chunk store does not", () => {
    const plain = create({ schema: { text: "string" } as const });
    getByID(plain, "never-inserted");
    expect(plain.internalDocumentIDStore.internalIdToId).toContain("never-inserted");
    const shard = new Shard("example.com");
    getByID(shard.db, "never-inserted");
    shard.removePage("never-inserted");
    expect(shard.db.internalDocumentIDStore.internalIdToId).toEqual([]);
  });

  test("sorting is off (Orama's sorter would index every field)", () => {
    expect(createShardDb().data.sorting as unknown).toEqual({ disabled: true });
  });
});

describe("why the persistence plugin does not store shards", () => {
  test("restore() recreates the database with the default tokenizer: stemmed queries lose hits", async () => {
    const db = create({
      schema: { text: "string" } as const,
      components: { tokenizer: { stemming: true } },
    });
    await insert(db, { id: "1", text: "installing packages" });
    const count = async (d: typeof db, term: string) => (await search(d, { term })).count;
    expect(await count(db, "installs")).toBe(1);
    const restored = await restore("json", (await persist(db, "json")) as string);
    // The index holds stems ("instal"); the restored tokenizer no longer stems the query.
    expect(await count(restored as typeof db, "installs")).toBe(0);
    expect(await count(restored as typeof db, "installing")).toBe(0);
  });

  test("its binary format is msgpack written as hex text, and a shard comes back without its components", async () => {
    const shard = new Shard("example.com");
    shard.upsertPage(page("p", ["hello world"]));
    const binary = await persist(shard.db, "binary");
    expect(typeof binary).toBe("string");
    expect(binary as string).toMatch(/^[0-9a-f]+$/);
    // Loaded into a default database, the chunk index's saved form does not even load.
    await expect(restore("binary", binary)).rejects.toThrow();
    // Shard.fromRaw: created with the shard components first, then Orama's load().
    const reloaded = Shard.fromRaw("example.com", shard.save());
    expect(reloaded.db.data.index).toBeInstanceOf(ChunkIndexStore);
    expect(reloaded.searchText("worlds", 5).map((h) => h.chunkId)).toEqual(["p#0"]);
  });
});
