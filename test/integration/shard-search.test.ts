/** Search over shards: modes, filters inside both engines, scope, fusion, any `q`. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PageInput } from "../../src/search/shard.ts";
import { ShardRegistry } from "../../src/search/shard-registry.ts";
import { RRF_K, searchShards, whereClause } from "../../src/search/shard-search.ts";

const DIM = 384;
/** A unit vector near axis `axis` (smaller `spread`: closer). */
function near(axis: number, spread: number, seed: number): number[] {
  return Array.from({ length: DIM }, (_, i) =>
    i === axis ? 1 : spread * Math.sin(seed * 13.1 + i),
  );
}

function page(
  pageId: string,
  type: string,
  texts: string[],
  axis: number,
  spread: number,
  locale = "en-US",
): PageInput {
  return {
    pageId,
    title: `${type} page`,
    facets: {
      type,
      locale,
      topics: type === "docs" ? ["devtools"] : [],
      technicality: type === "docs" ? 0.8 : 0.2,
    },
    chunks: texts.map((text, i) => ({
      heading: `${pageId} > ${i}`,
      text,
      vector: near(axis, spread, i + pageId.length),
    })),
  };
}

let dir: string;
let registry: ShardRegistry;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wc-search-test-"));
  registry = await ShardRegistry.open({ dir, memoryBudgetBytes: 2 ** 30 });
  // Blog pages match "kafka" strongly (title and many repeats) and sit nearest the query vector;
  // docs pages match weakly and further away. Filters must still return docs hits, `limit` of them.
  const blogs = Array.from({ length: 30 }, (_, i) =>
    page(`pg_blog${i}`, "blog", ["kafka kafka kafka streams kafka"], 0, 0.01),
  );
  const docs = Array.from({ length: 12 }, (_, i) =>
    page(
      `pg_doc${i}`,
      "docs",
      [`configure the kafka consumer, part ${i}`, "unrelated words here"],
      0,
      0.5,
    ),
  );
  await registry.upsertPages("kafka.example", [...blogs, ...docs]);
  await registry.upsertPages("other.example", [
    page("pg_o1", "docs", ["kafka connectors on another site"], 0, 0.3, "de-DE"),
    page("pg_cjk", "docs", ["東京都の天気予報とカフカ"], 1, 0.2, "ja"),
  ]);
});

afterAll(async () => {
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
});

const query = near(0, 0.02, 99);
const both = ["kafka.example", "other.example"];

describe("searchShards", () => {
  test("filters run inside both engines: `limit` hits whenever that many chunks match", async () => {
    for (const mode of ["text", "vector", "hybrid"] as const) {
      const hits = await searchShards(registry, {
        q: "kafka",
        mode,
        vector: query,
        domains: both,
        filters: { types: ["docs"] },
        limit: 10,
      });
      expect(hits).toHaveLength(10);
      expect(hits.every((h) => h.pageId.startsWith("pg_doc") || h.pageId === "pg_o1")).toBe(true);
    }
  });

  test("locale ranges, topics, technicality", async () => {
    const run = (filters: Parameters<typeof whereClause>[0]) =>
      searchShards(registry, { q: "kafka", mode: "text", domains: both, filters, limit: 50 });
    expect((await run({ locales: ["de"] })).map((h) => h.pageId)).toEqual(["pg_o1"]);
    expect((await run({ locales: ["EN"] })).length).toBe(42);
    expect((await run({ locales: ["en-us"] })).length).toBe(42);
    expect((await run({ locales: ["en-GB"] })).length).toBe(0);
    expect((await run({ topics: ["devtools"], technicalityMin: 0.5 })).length).toBe(13);
    expect((await run({ technicalityMin: 0.9 })).length).toBe(0);
  });

  test("a domain filter touches one shard", async () => {
    await registry.flush();
    const fresh = await ShardRegistry.open({ dir, memoryBudgetBytes: 2 ** 30 });
    const hits = await searchShards(fresh, {
      q: "kafka",
      mode: "hybrid",
      vector: query,
      domains: ["other.example"],
      limit: 10,
    });
    expect(new Set(hits.map((h) => h.domain))).toEqual(new Set(["other.example"]));
    expect(fresh.loaded()).toEqual(["other.example"]);
  });

  test("hybrid: one chunk per page first, ranks per engine, scores are fused page scores", async () => {
    const hits = await searchShards(registry, {
      q: "kafka consumer",
      mode: "hybrid",
      vector: query,
      domains: both,
      limit: 50,
    });
    expect(hits).toHaveLength(50);
    const firstPages = hits.slice(0, 43).map((h) => h.pageId);
    expect(new Set(firstPages).size).toBe(43); // 43 pages with a matching chunk, each once first
    const own = (h: (typeof hits)[number]) =>
      (h.ranks.text ? 1 / (RRF_K + h.ranks.text) : 0) +
      (h.ranks.vector ? 1 / (RRF_K + h.ranks.vector) : 0);
    for (const [i, h] of hits.entries()) {
      expect(h.ranks.text ?? h.ranks.vector).toBeGreaterThan(0);
      // A page's score sums all of its chunks' terms, its shown chunk's among them; the chunks
      // after the pages carry their own chunk-level score.
      if (i < 43) expect(h.score).toBeGreaterThanOrEqual(own(h) - 1e-12);
      else expect(h.score).toBeCloseTo(own(h), 12);
    }
    for (let i = 1; i < 43; i++)
      expect((hits[i]?.score as number) <= (hits[i - 1]?.score as number)).toBe(true);
  });

  test("text and vector modes rank one engine, with its rank and a score in [0, 1]", async () => {
    const text = await searchShards(registry, {
      q: "kafka",
      mode: "text",
      domains: both,
      limit: 5,
    });
    expect(text.map((h) => h.ranks)).toEqual([1, 2, 3, 4, 5].map((r) => ({ text: r })));
    expect(text.every((h) => h.score > 0 && h.score < 1 && h.pageId.startsWith("pg_blog"))).toBe(
      true,
    );
    const vector = await searchShards(registry, {
      q: "ignored",
      mode: "vector",
      vector: query,
      domains: both,
      limit: 5,
    });
    expect(vector.map((h) => h.ranks.vector)).toEqual([1, 2, 3, 4, 5]);
    expect(vector.every((h) => h.score > 0.9 && h.score <= 1)).toBe(true);
    await expect(
      searchShards(registry, { q: "x", mode: "hybrid", domains: both, limit: 5 }),
    ).rejects.toThrow(RangeError);
  });

  test("the query vector may be a promise (embedded while the text engine runs)", async () => {
    for (const mode of ["vector", "hybrid"] as const) {
      const request = { q: "kafka consumer", mode, domains: both, limit: 20 };
      let resolve: (v: ArrayLike<number>) => void = () => undefined;
      const pending = new Promise<ArrayLike<number>>((r) => {
        resolve = r;
      });
      const later = searchShards(registry, { ...request, vector: pending });
      resolve(query);
      const now = await searchShards(registry, { ...request, vector: query });
      expect(await later).toEqual(now);
      expect(now).toHaveLength(20);
    }
    const failed = Promise.reject(new Error("the embedding lane failed"));
    await expect(
      searchShards(registry, {
        q: "kafka",
        mode: "hybrid",
        vector: failed,
        domains: both,
        limit: 5,
      }),
    ).rejects.toThrow("the embedding lane failed");
  });

  test("any q is safe: operators, quotes, 1,000 characters, CJK", async () => {
    const qs = [
      'kafka" OR 1=1 --',
      "NEAR(kafka streams) AND NOT * ^ : ( ) {}",
      "\"'`\\",
      "kafka ".repeat(200).slice(0, 1000),
      "x".repeat(1000),
      "",
      "東京の天気",
    ];
    for (const q of qs) {
      const hits = await searchShards(registry, {
        q,
        mode: "hybrid",
        vector: query,
        domains: both,
        limit: 10,
      });
      expect(hits.length).toBeLessThanOrEqual(10);
    }
    const cjk = await searchShards(registry, {
      q: "東京の天気",
      mode: "text",
      domains: both,
      limit: 3,
    });
    expect(cjk[0]?.pageId).toBe("pg_cjk");
    expect(await searchShards(registry, { q: "", mode: "text", domains: both, limit: 3 })).toEqual(
      [],
    );
  });

  test("whereClause turns filters into one Orama where clause", () => {
    expect(whereClause({})).toEqual({});
    expect(
      whereClause({ types: ["docs"], locales: ["en_US"], topics: ["a"], technicalityMin: 0 }),
    ).toEqual({
      type: { in: ["docs"] },
      locale: { containsAny: ["en-us"] },
      topics: { containsAny: ["a"] },
      technicality: { gte: 0 },
    });
  });
});
