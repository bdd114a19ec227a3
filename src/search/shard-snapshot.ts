/**
 * A shard's snapshot bytes: Orama `save()` output in a compact binary form, and back to what
 * Orama `load()` takes. Why not @orama/plugin-data-persistence: its `binary` format is msgpack
 * written as hex text (twice the bytes), its `restore()` recreates the database with Orama's
 * default components (our tokenizer, index and store are lost), and none of its formats knows
 * typed arrays (measured in test/bench/search-latency.ts and pinned in the unit tests).
 *
 * Layout: a 64-byte header (magic, format, tokenizer and Orama versions, vector dimensions, the
 * first log generation not included, body length and CRC-32), then the body: a zstd frame with
 * everything but the vectors (strings joined by NUL, postings delta-varint coded per term), then
 * the int8 vectors and their scales as they are (they do not compress). Chunk internal ids are
 * renumbered 1..n in slot order, which is how a shard gives back the ids Orama never reclaims.
 */
import type { save } from "@orama/orama";
import type { ChunkIndexRaw } from "./chunk-index.ts";
import type { ChunkStoreRaw, StoredChunk } from "./chunk-store.ts";
import type { PageTableRaw } from "./page-table.ts";
import { EMBED_DIM, ORAMA_VERSION } from "./shard-schema.ts";
import { packPostings, Reader, SnapshotError, unpackPostings, Writer } from "./snapshot-binary.ts";

export { SnapshotError };

import { TOKENIZER_VERSION } from "./tokenizer.ts";

type RawData = ReturnType<typeof save>;

const MAGIC = "WCSHARD1";
export const SNAPSHOT_FORMAT = 1;
const HEADER_BYTES = 64;

export interface SnapshotHeader {
  readonly format: number;
  readonly tokenizer: number;
  readonly dim: number;
  readonly orama: string;
  /** Log generations from this one on are not in the snapshot. */
  readonly nextLog: number;
  readonly chunks: number;
}

const encoder = new TextEncoder();

function clean(s: string): string {
  return s.includes("\u0000") ? s.replaceAll("\u0000", " ") : s;
}

/**
 * Snapshot bytes of Orama `save()` output of a shard database. Everything is read from `raw`
 * before the first await (the shard may change meanwhile); zstd runs on Bun's thread pool.
 */
export async function encodeSnapshot(raw: RawData, nextLog: number): Promise<Uint8Array> {
  const index = raw.index as ChunkIndexRaw;
  const docs = (raw.docs as ChunkStoreRaw).docs;
  const ids = (raw.internalDocumentIDStore as { internalIdToId: string[] }).internalIdToId;
  const n = index.slots;
  const chunkIds: string[] = new Array(n);
  const headings: string[] = new Array(n);
  const texts: string[] = new Array(n);
  for (let slot = 0; slot < n; slot++) {
    const internalId = index.internalIds[slot] as number;
    const doc = docs[internalId] as StoredChunk;
    chunkIds[slot] = clean(ids[internalId - 1] as string);
    headings[slot] = clean(doc.heading);
    texts[slot] = clean(doc.text);
  }
  const w = new Writer();
  w.json(index.pages);
  w.view(index.pageRows);
  w.strings(chunkIds);
  w.strings(headings);
  w.strings(texts);
  w.strings(index.text.terms.map(clean));
  w.view(index.text.offsets);
  w.bytes(packPostings(index.text.offsets, index.text.postings));
  w.view(index.text.lengths);
  const plain = w.done();
  const vectorScales = index.vectorScales;
  const vectorCodes = index.vectorCodes;
  const packed = await Bun.zstdCompress(plain, { level: 3 });
  const body = new Writer();
  body.bytes(packed);
  body.view(vectorScales);
  body.view(vectorCodes);
  const payload = body.done();
  const out = new Uint8Array(HEADER_BYTES + payload.byteLength);
  out.set(encoder.encode(MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, SNAPSHOT_FORMAT, true);
  view.setUint32(12, TOKENIZER_VERSION, true);
  view.setUint32(16, EMBED_DIM, true);
  view.setUint32(20, nextLog, true);
  view.setUint32(24, n, true);
  view.setFloat64(28, payload.byteLength, true);
  view.setUint32(36, Bun.hash.crc32(payload), true);
  out.set(encoder.encode(ORAMA_VERSION.padEnd(16, " ")).subarray(0, 16), 40);
  out.set(payload, HEADER_BYTES);
  return out;
}

/** The header of snapshot bytes; throws SnapshotError if they are not a whole snapshot. */
export function readSnapshotHeader(bytes: Uint8Array): SnapshotHeader {
  if (bytes.byteLength < HEADER_BYTES)
    throw new SnapshotError("the snapshot is shorter than its header");
  if (new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw new SnapshotError("not a shard snapshot (bad magic)");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getFloat64(28, true);
  if (bytes.byteLength !== HEADER_BYTES + length) {
    throw new SnapshotError(
      `the snapshot has ${bytes.byteLength - HEADER_BYTES} body bytes, its header says ${length}`,
    );
  }
  if (Bun.hash.crc32(bytes.subarray(HEADER_BYTES)) !== view.getUint32(36, true)) {
    throw new SnapshotError("the snapshot's checksum does not match its body");
  }
  return {
    format: view.getUint32(8, true),
    tokenizer: view.getUint32(12, true),
    dim: view.getUint32(16, true),
    nextLog: view.getUint32(20, true),
    chunks: view.getUint32(24, true),
    orama: new TextDecoder().decode(bytes.subarray(40, 56)).trim(),
  };
}

/** Whether a snapshot with this header can be loaded by this build (else: rebuild the shard). */
export function isCurrent(header: SnapshotHeader): boolean {
  return (
    header.format === SNAPSHOT_FORMAT &&
    header.tokenizer === TOKENIZER_VERSION &&
    header.dim === EMBED_DIM &&
    header.orama === ORAMA_VERSION
  );
}

/** What Orama `load()` takes, from snapshot bytes (checked: throws SnapshotError). */
export async function decodeSnapshot(
  bytes: Uint8Array,
): Promise<{ header: SnapshotHeader; raw: RawData }> {
  const header = readSnapshotHeader(bytes);
  if (!isCurrent(header)) throw new SnapshotError("the snapshot was written by another version");
  const body = new Reader(bytes.subarray(HEADER_BYTES));
  let inner: Reader;
  try {
    inner = new Reader(await Bun.zstdDecompress(body.bytes()));
  } catch (err) {
    throw new SnapshotError(`the snapshot body does not decompress: ${(err as Error).message}`);
  }
  const vectorScales = new Float32Array(body.copy());
  const vectorCodes = new Int8Array(body.copy());
  const pages = inner.json<PageTableRaw>();
  const pageRows = new Int32Array(inner.copy());
  const chunkIds = inner.strings();
  const headings = inner.strings();
  const texts = inner.strings();
  const terms = inner.strings();
  const offsets = new Uint32Array(inner.copy());
  const postings = unpackPostings(offsets, inner.bytes());
  const lengths = new Uint16Array(inner.copy());
  const n = header.chunks;
  if (
    [pageRows.length, chunkIds.length, headings.length, texts.length, vectorScales.length].some(
      (l) => l !== n,
    )
  ) {
    throw new SnapshotError("the snapshot's sections disagree on the number of chunks");
  }
  const pageIds = pages.pages.map((p) => p.id);
  const docs: (StoredChunk | undefined)[] = [undefined];
  const internalIds = new Int32Array(n);
  for (let slot = 0; slot < n; slot++) {
    internalIds[slot] = slot + 1;
    const pageId = pageIds[pageRows[slot] as number];
    if (pageId === undefined) throw new SnapshotError("a chunk of the snapshot has no page");
    docs.push({
      pageId,
      heading: headings[slot] as string,
      text: texts[slot] as string,
      embedding: null,
    });
  }
  const index: ChunkIndexRaw = {
    slots: n,
    internalIds,
    pageRows,
    text: { terms, offsets, postings, lengths },
    vectorCodes,
    vectorScales,
    pages,
  };
  const raw = {
    internalDocumentIDStore: { internalIdToId: chunkIds },
    index,
    docs: { docs, count: n } satisfies ChunkStoreRaw,
    sorting: { enabled: false },
    pinning: { rules: [] },
    language: "english",
  };
  return { header, raw: raw as unknown as RawData };
}
