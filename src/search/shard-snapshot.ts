/**
 * A shard's snapshot bytes: Orama `save()` output in a compact binary form, and back to what
 * Orama `load()` takes. Why not @orama/plugin-data-persistence: its `binary` format is msgpack
 * written as hex text (twice the bytes), its `restore()` recreates the database with Orama's
 * default components (our tokenizer, index and store are lost), and none of its formats knows
 * typed arrays (measured in test/bench/search-latency.ts and pinned in the unit tests).
 *
 * Layout: a 64-byte header (magic, format, tokenizer and Orama versions, vector dimensions, the
 * first log generation not included, body length), then the body: eleven sections, each with
 * its length and CRC-32,
 * each its own zstd frame (compressed side by side on Bun's thread pool) except the int8 vectors
 * and their scales, kept as they are (they do not compress). Strings are joined by NUL, postings
 * delta-varint coded per term. The parts are written one after the other, never copied into one
 * buffer (that copy alone blocked the event loop ~0.5 s at 38k chunks). Chunk internal ids are
 * renumbered 1..n in slot order, which is how a shard gives back the ids Orama never reclaims.
 */
import type { save } from "@orama/orama";
import type { ChunkIndexRaw } from "./chunk-index.ts";
import type { ChunkStoreRaw, StoredChunk } from "./chunk-store.ts";
import type { PageTableRaw } from "./page-table.ts";
import { EMBED_DIM, ORAMA_VERSION } from "./shard-schema.ts";
import {
  bytesOf,
  frame,
  jsonBytes,
  jsonFrom,
  packPostings,
  SnapshotError,
  stringsBytes,
  stringsFrom,
  typedFrom,
  unframe,
  unpackPostings,
} from "./snapshot-binary.ts";

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

/** Sections, in order; the last two (vectors) are stored as they are. */
const SECTIONS = 11;
const RAW_SECTIONS = 2;

/**
 * Snapshot bytes of Orama `save()` output of a shard database, as parts to write in order.
 * Everything is read from `raw` before the first await (the shard may change meanwhile).
 */
export async function encodeSnapshot(raw: RawData, nextLog: number): Promise<Uint8Array[]> {
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
    // No NUL inside: the chunk store and Shard.upsertPage keep them out.
    chunkIds[slot] = ids[internalId - 1] as string;
    headings[slot] = doc.heading;
    texts[slot] = doc.text;
  }
  // Part by part, letting requests in between: a big shard's encoding is seconds of one thread
  // (the handbook's 67k chunks: ~1.9 s in one piece under load), and it runs on the serving one.
  const parts: (() => Uint8Array)[] = [
    () => jsonBytes(index.pages),
    () => bytesOf(index.pageRows),
    () => stringsBytes(chunkIds),
    () => stringsBytes(headings),
    () => stringsBytes(texts),
    () => stringsBytes(index.text.terms), // letters and digits only (tokenizer.ts)
    () => bytesOf(index.text.offsets),
    () => packPostings(index.text.offsets, index.text.postings),
    () => bytesOf(index.text.lengths),
  ];
  const plain: Uint8Array[] = [];
  for (const part of parts) {
    plain.push(part());
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const vectors = [bytesOf(index.vectorScales), bytesOf(index.vectorCodes)];
  const packed = await Promise.all(plain.map((b) => Bun.zstdCompress(b, { level: 3 })));
  const body = frame([...packed, ...vectors]);
  const length = body.reduce((n, part) => n + part.byteLength, 0);
  const header = new Uint8Array(HEADER_BYTES);
  header.set(encoder.encode(MAGIC), 0);
  const view = new DataView(header.buffer);
  view.setUint32(8, SNAPSHOT_FORMAT, true);
  view.setUint32(12, TOKENIZER_VERSION, true);
  view.setUint32(16, EMBED_DIM, true);
  view.setUint32(20, nextLog, true);
  view.setUint32(24, n, true);
  view.setFloat64(28, length, true);
  header.set(encoder.encode(ORAMA_VERSION.padEnd(16, " ")).subarray(0, 16), 40);
  return [header, ...body];
}

/** The parts of a snapshot joined (tests and tools; the registry writes the parts). */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

function headerFields(bytes: Uint8Array): SnapshotHeader {
  if (bytes.byteLength < HEADER_BYTES) {
    throw new SnapshotError("the snapshot is shorter than its header");
  }
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
  return {
    format: view.getUint32(8, true),
    tokenizer: view.getUint32(12, true),
    dim: view.getUint32(16, true),
    nextLog: view.getUint32(20, true),
    chunks: view.getUint32(24, true),
    orama: new TextDecoder().decode(bytes.subarray(40, 56)).trim(),
  };
}

/**
 * The header of snapshot bytes; throws SnapshotError unless they are a whole snapshot: length
 * as the header says, every section's checksum right.
 */
export function readSnapshotHeader(bytes: Uint8Array): SnapshotHeader {
  const header = headerFields(bytes);
  unframe(bytes.subarray(HEADER_BYTES), SECTIONS);
  return header;
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
  const header = headerFields(bytes);
  if (!isCurrent(header)) throw new SnapshotError("the snapshot was written by another version");
  const sections = unframe(bytes.subarray(HEADER_BYTES), SECTIONS);
  let plain: Uint8Array[];
  try {
    plain = await Promise.all(
      sections.slice(0, SECTIONS - RAW_SECTIONS).map((b) => Bun.zstdDecompress(b)),
    );
  } catch (err) {
    throw new SnapshotError(`the snapshot body does not decompress: ${(err as Error).message}`);
  }
  const n = header.chunks;
  const at = (i: number) => plain[i] as Uint8Array;
  const pages = jsonFrom<PageTableRaw>(at(0));
  const pageRows = typedFrom(Int32Array, at(1));
  const chunkIds = stringsFrom(at(2), n);
  const headings = stringsFrom(at(3), n);
  const texts = stringsFrom(at(4), n);
  const offsets = typedFrom(Uint32Array, at(6));
  const terms = stringsFrom(at(5), Math.max(0, offsets.length - 1));
  const postings = unpackPostings(offsets, at(7));
  const lengths = typedFrom(Uint16Array, at(8));
  const vectorScales = typedFrom(Float32Array, sections[9] as Uint8Array);
  const vectorCodes = typedFrom(Int8Array, sections[10] as Uint8Array);
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
