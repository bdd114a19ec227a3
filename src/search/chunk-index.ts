/**
 * The shards' Orama `index` component (pinned to Orama 3.1.18: see orama-pin.ts). Orama calls
 * `insert`/`remove` once per schema property of a document, `search` for full text,
 * `searchByWhereClause` for `where`, and the vector field's `node.find` for vector search; this
 * component answers all of them from three compact structures:
 * - text-index.ts: postings per term and BM25 as FTS5 scores it (replaces the radix tree and
 *   `frequencies`);
 * - vector-store.ts: int8 vectors in one array with a top-k scan (replaces VectorIndex);
 * - page-table.ts: facets per page, `where` decided per page (replaces FlatTree/AVL).
 *
 * Slots: each inserted document gets the next slot (a dense row number in those structures);
 * a removed document's slot is dead for good (Orama reuses internal ids, `page#n` chunk ids come
 * back on every re-crawl) and `save` compacts live slots to 0..n-1. Orama's `search` has no way
 * to pass `limit` down to an index, so the shard sets `queryLimit` before each call (searches
 * are synchronous) and this component returns only that many hits.
 */
import type { AnyIndexStore, IIndex, SearchableType, Tokenizer, TokenScore } from "@orama/orama";
import { type FacetKind, type FacetValue, PageTable, type PageTableRaw } from "./page-table.ts";
import { TextIndex, type TextIndexRaw } from "./text-index.ts";
import { VectorStore } from "./vector-store.ts";

type OramaVectorNode = AnyIndexStore["vectorIndexes"][string]["node"];

export interface ChunkIndexConfig {
  /** The property holding the page id (an `enum`); it must come first in the schema. */
  readonly pageField: string;
  /** Full-text properties and their BM25 weights. */
  readonly textWeights: Readonly<Record<string, number>>;
  readonly facets: Readonly<Record<string, FacetKind>>;
  readonly vectorField: string;
  readonly dim: number;
}

export interface ChunkIndexRaw {
  readonly slots: number;
  /** Orama internal id of each slot. */
  readonly internalIds: Int32Array;
  /** Page row (in `pages`) of each slot. */
  readonly pageRows: Int32Array;
  readonly text: TextIndexRaw;
  readonly vectorCodes: Int8Array;
  readonly vectorScales: Float32Array;
  readonly pages: PageTableRaw;
}

/** Orama's `where` result: the chunks a filter lets through, as a slot mask. */
export class ChunkFilter extends Set<number> {
  readonly mask: Uint8Array;
  readonly #store: ChunkIndexStore;
  readonly #count: number;

  constructor(store: ChunkIndexStore, mask: Uint8Array) {
    super();
    this.mask = mask;
    this.#store = store;
    this.#count = mask.reduce((n, v) => n + v, 0);
  }

  override has(internalId: number): boolean {
    const slot = this.#store.slotOf[internalId] ?? -1;
    return slot >= 0 && this.mask[slot] === 1;
  }

  override get size(): number {
    return this.#count;
  }

  override *values(): SetIterator<number> {
    for (let slot = 0; slot < this.mask.length; slot++) {
      if (this.mask[slot] === 1) yield this.#store.internalOf[slot] as number;
    }
  }

  override keys(): SetIterator<number> {
    return this.values();
  }

  override [Symbol.iterator](): SetIterator<number> {
    return this.values();
  }
}

export class ChunkIndexStore implements AnyIndexStore {
  readonly config: ChunkIndexConfig;
  readonly properties: string[];
  readonly types: Record<string, SearchableType>;
  vectorIndexes: AnyIndexStore["vectorIndexes"];
  text = new TextIndex();
  vectors: VectorStore;
  pages: PageTable;
  /** Slot of each Orama internal id (−1: none). */
  slotOf = new Int32Array(1024).fill(-1);
  internalOf = new Int32Array(1024);
  pageRow = new Int32Array(1024);
  live = new Uint8Array(1024);
  slots = 0;
  liveSlots = 0;
  /** Bumped on every change: cached filters are only valid for one generation. */
  generation = 0;
  /** Hits `search` and `find` return; set by the shard around each Orama search. */
  queryLimit = 10;
  readonly #filters = new Map<string, { generation: number; filter: ChunkFilter }>();

  constructor(config: ChunkIndexConfig, schema: Record<string, unknown>) {
    this.config = config;
    this.properties = Object.keys(schema);
    this.types = schema as Record<string, SearchableType>;
    if (this.properties[0] !== config.pageField) {
      throw new Error(`${config.pageField} must be the schema's first property`);
    }
    this.vectors = new VectorStore(config.dim);
    this.pages = new PageTable(config.facets);
    const node = new ChunkVectorNode(this);
    this.vectorIndexes = {
      [config.vectorField]: {
        type: "Vector",
        node: node as unknown as OramaVectorNode,
        isArray: false,
      },
    };
  }

  #grow(slot: number, internalId: number): void {
    if (internalId >= this.slotOf.length) {
      let size = this.slotOf.length;
      while (size <= internalId) size *= 2;
      const slotOf = new Int32Array(size).fill(-1);
      slotOf.set(this.slotOf);
      this.slotOf = slotOf;
    }
    if (slot >= this.internalOf.length) {
      let size = this.internalOf.length;
      while (size <= slot) size *= 2;
      const grow = <T extends Int32Array | Uint8Array>(a: T, b: T): T => {
        b.set(a);
        return b;
      };
      this.internalOf = grow(this.internalOf, new Int32Array(size));
      this.pageRow = grow(this.pageRow, new Int32Array(size));
      this.live = grow(this.live, new Uint8Array(size));
    }
  }

  /** A new slot for `internalId` on page `pageId`. */
  allocate(internalId: number, pageId: string): number {
    const slot = this.slots++;
    this.#grow(slot, internalId);
    const row = this.pages.intern(pageId);
    this.slotOf[internalId] = slot;
    this.internalOf[slot] = internalId;
    this.pageRow[slot] = row;
    this.live[slot] = 1;
    this.liveSlots++;
    this.pages.addChunk(row);
    this.generation++;
    return slot;
  }

  kill(internalId: number): void {
    const slot = this.slotOf[internalId] ?? -1;
    if (slot < 0) return;
    this.slotOf[internalId] = -1;
    this.live[slot] = 0;
    this.liveSlots--;
    this.text.drop(slot);
    this.vectors.clear(slot);
    this.pages.removeChunk(this.pageRow[slot] as number);
    this.generation++;
  }

  /** The cached filter for `where` (built once per generation). */
  filter(where: object): ChunkFilter {
    const key = JSON.stringify(where);
    const cached = this.#filters.get(key);
    if (cached && cached.generation === this.generation) return cached.filter;
    const pass = this.pages.matchWhere(where);
    const mask = new Uint8Array(this.slots);
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.live[slot] === 1 && pass[this.pageRow[slot] as number] === 1) mask[slot] = 1;
    }
    const filter = new ChunkFilter(this, mask);
    if (this.#filters.size >= 32) this.#filters.clear();
    this.#filters.set(key, { generation: this.generation, filter });
    return filter;
  }

  /** A slot mask for whatever Orama hands back as the `where` result. */
  mask(ids: Set<number> | undefined): Uint8Array | null {
    if (ids === undefined) return null;
    if (ids instanceof ChunkFilter) return ids.mask;
    const mask = new Uint8Array(this.slots);
    for (const id of ids) {
      const slot = this.slotOf[id] ?? -1;
      if (slot >= 0) mask[slot] = 1;
    }
    return mask;
  }
}

/** What Orama's vector search calls: `find` returns the top `queryLimit` hits. */
class ChunkVectorNode {
  readonly #store: ChunkIndexStore;
  constructor(store: ChunkIndexStore) {
    this.#store = store;
  }
  get size(): number {
    return this.#store.config.dim;
  }
  find(vector: ArrayLike<number>, similarity: number, ids: Set<number> | undefined): TokenScore[] {
    const s = this.#store;
    const top = s.vectors.top(vector, s.queryLimit, s.slots, s.mask(ids) ?? s.live);
    return top
      .filter((hit) => hit.score >= similarity)
      .map((hit) => [s.internalOf[hit.slot] as number, hit.score]);
  }
}

function notUsed(name: string): never {
  throw new Error(`${name} belongs to Orama's default index; the chunk index does not use it`);
}

/** The index component for `create({ components: { index } })`. */
export function createChunkIndex(config: ChunkIndexConfig): IIndex<ChunkIndexStore> {
  const textWeight = (prop: string) => config.textWeights[prop];
  return {
    create: (_orama, _ids, schema) =>
      new ChunkIndexStore(config, schema as Record<string, unknown>),
    insert(_impl, index, prop, _id, internalId, value, _type, language, tokenizer: Tokenizer) {
      if (prop === config.pageField) {
        index.allocate(internalId, String(value));
        return;
      }
      const slot = index.slotOf[internalId] ?? -1;
      if (slot < 0) throw new Error(`a chunk needs its ${config.pageField} to be indexed`);
      const weight = textWeight(prop);
      if (weight !== undefined) {
        index.text.add(slot, tokenizer.tokenize(String(value), language, prop), weight);
      } else if (prop === config.vectorField) {
        index.vectors.set(slot, value as unknown as ArrayLike<number>);
      } else if (prop in config.facets) {
        index.pages.setFacet(index.pageRow[slot] as number, prop, value as FacetValue);
      }
    },
    remove(_impl, index, _prop, _id, internalId) {
      index.kill(internalId);
      return true;
    },
    search(index, term, tokenizer, language, _props, _exact, _tolerance, _boost, _rel, _n, ids) {
      const store = index as ChunkIndexStore;
      const terms = tokenizer.tokenize(term, language);
      const hits = store.text.search(terms, store.queryLimit, store.live, store.mask(ids));
      return hits.map((hit) => [store.internalOf[hit.slot] as number, hit.score]);
    },
    searchByWhereClause: (index, _tokenizer, filters) =>
      (index as ChunkIndexStore).filter(filters as object),
    getSearchableProperties: (index) => index.properties,
    getSearchablePropertiesWithTypes: (index) => index.types,
    insertDocumentScoreParameters: () => notUsed("insertDocumentScoreParameters"),
    insertTokenScoreParameters: () => notUsed("insertTokenScoreParameters"),
    removeDocumentScoreParameters: () => notUsed("removeDocumentScoreParameters"),
    removeTokenScoreParameters: () => notUsed("removeTokenScoreParameters"),
    calculateResultScores: () => notUsed("calculateResultScores"),
    save: <R>(index: ChunkIndexStore) => saveChunkIndex(index) as R,
    load: <R>(_ids: unknown, raw: R) => loadChunkIndex(config, raw as ChunkIndexRaw),
  };
}

/** Live slots compacted to 0..n-1, in slot order. */
export function saveChunkIndex(store: ChunkIndexStore): ChunkIndexRaw {
  const remap = new Int32Array(store.slots).fill(-1);
  let n = 0;
  for (let slot = 0; slot < store.slots; slot++) if (store.live[slot] === 1) remap[slot] = n++;
  const pages = store.pages.save();
  const rowRemap = new Map<number, number>(pages.rows.map((row, i) => [row, i]));
  const internalIds = new Int32Array(n);
  const pageRows = new Int32Array(n);
  for (let slot = 0; slot < store.slots; slot++) {
    const to = remap[slot] as number;
    if (to < 0) continue;
    internalIds[to] = store.internalOf[slot] as number;
    pageRows[to] = rowRemap.get(store.pageRow[slot] as number) ?? -1;
  }
  const { codes: vectorCodes, scales: vectorScales } = store.vectors.compact(remap, n);
  return {
    slots: n,
    internalIds,
    pageRows,
    text: store.text.save(remap, n),
    vectorCodes,
    vectorScales,
    pages: { facets: pages.facets, pages: pages.pages },
  };
}

export function loadChunkIndex(config: ChunkIndexConfig, raw: ChunkIndexRaw): ChunkIndexStore {
  const schema: Record<string, string> = { [config.pageField]: "enum" };
  for (const field of Object.keys(config.textWeights)) schema[field] = "string";
  Object.assign(schema, config.facets);
  schema[config.vectorField] = `vector[${config.dim}]`;
  const store = new ChunkIndexStore(config, schema);
  // One block sized to the snapshot, not a doubling per 64 rows.
  store.vectors.dispose();
  store.vectors = new VectorStore(config.dim, Math.max(64, raw.slots));
  store.text = TextIndex.load(raw.text);
  store.pages = PageTable.load(config.facets, raw.pages);
  const n = raw.slots;
  const capacity = Math.max(1024, n);
  const maxInternal = raw.internalIds.reduce((a, b) => Math.max(a, b), 0);
  store.slotOf = new Int32Array(Math.max(1024, maxInternal + 1)).fill(-1);
  store.internalOf = new Int32Array(capacity);
  store.internalOf.set(raw.internalIds);
  store.pageRow = new Int32Array(capacity);
  store.pageRow.set(raw.pageRows);
  store.live = new Uint8Array(capacity);
  store.live.fill(1, 0, n);
  store.slots = n;
  store.liveSlots = n;
  const dim = config.dim;
  for (let slot = 0; slot < n; slot++) {
    store.slotOf[raw.internalIds[slot] as number] = slot;
    store.pages.addChunk(raw.pageRows[slot] as number);
    const scale = raw.vectorScales[slot] as number;
    if (scale !== 0) {
      store.vectors.setRaw(slot, raw.vectorCodes.subarray(slot * dim, (slot + 1) * dim), scale);
    }
  }
  return store;
}
