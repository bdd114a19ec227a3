/**
 * The shards' Orama `documentsStore` component: what a hit shows, nothing more. Orama's default
 * keeps every inserted document whole (title, facets and the vector as a `number[]` of 384
 * doubles, ~3 KB each) in an object keyed by internal id, and looks up unknown ids by
 * allocating internal ids for them. This store keeps, per chunk, the page id (one string shared
 * by a page's chunks), the heading path and the text; titles, facets and vectors live in the
 * index. `embedding: null` is a field of every stored chunk because Orama's vector search writes
 * `doc.embedding = null` into the stored document of each hit (a no-op here, not a new field).
 */
import type { IDocumentsStore } from "@orama/orama";

type SharedIds = Parameters<IDocumentsStore["create"]>[1];

export interface StoredChunk {
  readonly pageId: string;
  readonly heading: string;
  readonly text: string;
  embedding: null;
}

export interface ChunkStoreData {
  readonly sharedInternalDocumentStore: SharedIds;
  /** By Orama internal id (Orama's vector search reads `docs.docs[id]` directly). */
  docs: (StoredChunk | undefined)[];
  count: number;
  /** Characters of headings and texts held (for the memory estimate). */
  chars: number;
}

export interface ChunkStoreRaw {
  readonly docs: (StoredChunk | undefined)[];
  readonly count: number;
}

function internalId(store: ChunkStoreData, id: string | number): number | undefined {
  return typeof id === "number" ? id : store.sharedInternalDocumentStore.idToInternalId.get(id);
}

/** A string without NUL (the snapshot joins strings with it). */
function text(value: unknown): string {
  if (typeof value !== "string") return "";
  return value.includes("\u0000") ? value.replaceAll("\u0000", " ") : value;
}

export function createChunkStore(): IDocumentsStore<ChunkStoreData> {
  return {
    create: (_orama, shared) => ({
      sharedInternalDocumentStore: shared,
      docs: [],
      count: 0,
      chars: 0,
    }),
    get(store, id) {
      const at = internalId(store, id);
      return at === undefined ? undefined : store.docs[at];
    },
    getMultiple(store, ids) {
      return ids.map((id) => {
        const at = internalId(store, id);
        return at === undefined ? undefined : store.docs[at];
      });
    },
    getAll: (store) => store.docs as unknown as Record<number, StoredChunk>,
    store(store, _id, at, doc) {
      if (store.docs[at] !== undefined) return false;
      const chunk: StoredChunk = {
        pageId: text(doc.pageId),
        heading: text(doc.heading),
        text: text(doc.text),
        embedding: null,
      };
      store.docs[at] = chunk;
      store.count++;
      store.chars += chunk.heading.length + chunk.text.length;
      return true;
    },
    remove(store, id) {
      const at = internalId(store, id);
      const chunk = at === undefined ? undefined : store.docs[at];
      if (at === undefined || chunk === undefined) return false;
      store.chars -= chunk.heading.length + chunk.text.length;
      store.docs[at] = undefined;
      store.count--;
      return true;
    },
    count: (store) => store.count,
    save: <R>(store: ChunkStoreData) => ({ docs: store.docs, count: store.count }) as R,
    load: <R>(shared: SharedIds, raw: R) => {
      const { docs, count } = raw as ChunkStoreRaw;
      let chars = 0;
      for (const chunk of docs) if (chunk) chars += chunk.heading.length + chunk.text.length;
      return {
        sharedInternalDocumentStore: shared,
        docs: docs as (StoredChunk | undefined)[],
        count,
        chars,
      };
    },
  };
}
