/**
 * What a shard holds and how its Orama database is made: the schema, the components, the
 * version pin. A shard must always be created this way, also before `load()`: the persistence
 * plugin's `restore()` recreates a database with Orama's default components, and its default
 * tokenizer would then turn stemmed queries away (see test/unit/search/orama-pin.test.ts).
 */
import { create, type Orama } from "@orama/orama";
import oramaPackage from "@orama/orama/package.json" with { type: "json" };
import { type ChunkIndexConfig, ChunkIndexStore, createChunkIndex } from "./chunk-index.ts";
import { type ChunkStoreData, createChunkStore } from "./chunk-store.ts";
import { createShardTokenizer } from "./tokenizer.ts";

/** The Orama version the custom components were written and tested against. */
export const ORAMA_VERSION = "3.1.18";

if (oramaPackage.version !== ORAMA_VERSION) {
  throw new Error(
    `src/search was written for @orama/orama ${ORAMA_VERSION} (found ${oramaPackage.version}): its index and documents-store components replace Orama internals; check them against the new version, run test/unit/search, then change ORAMA_VERSION`,
  );
}

/** Dimensions of a chunk vector (all-MiniLM-L6-v2). */
export const EMBED_DIM = 384;

/** The page field comes first: the index component allocates a chunk's slot on it. */
export const SHARD_SCHEMA = {
  pageId: "enum",
  title: "string",
  heading: "string",
  text: "string",
  type: "enum",
  locale: "enum[]",
  topics: "enum[]",
  technicality: "number",
  embedding: `vector[${EMBED_DIM}]`,
} as const;

/** Weights of the reference's `bm25(chunks_fts, 4.0, 2.0, 1.0)` over (title, heading, text). */
export const TEXT_WEIGHTS = { title: 4, heading: 2, text: 1 } as const;

export const INDEX_CONFIG: ChunkIndexConfig = {
  pageField: "pageId",
  textWeights: TEXT_WEIGHTS,
  facets: { type: "enum", locale: "enum[]", topics: "enum[]", technicality: "number" },
  vectorField: "embedding",
  dim: EMBED_DIM,
};

export type ShardDb = Orama<typeof SHARD_SCHEMA>;

/** A new, empty shard database with the shard components. */
export function createShardDb(): ShardDb {
  return create({
    schema: SHARD_SCHEMA,
    sort: { enabled: false },
    components: {
      tokenizer: createShardTokenizer(),
      index: createChunkIndex(INDEX_CONFIG),
      documentsStore: createChunkStore(),
    },
  }) as unknown as ShardDb;
}

/** The index component's data of a shard database. */
export function indexOf(db: ShardDb): ChunkIndexStore {
  const index = db.data.index as unknown;
  if (!(index instanceof ChunkIndexStore)) throw new Error("not a shard database");
  return index;
}

export function docsOf(db: ShardDb): ChunkStoreData {
  return db.data.docs as unknown as ChunkStoreData;
}
