/**
 * A shard's change log between snapshots: every upsert, removal, facet change and late vector
 * is appended (synchronously, to the page cache; fsynced when a snapshot seals the log) as one
 * record `[u32 length][u32 CRC-32][payload]`, payload `[u32 JSON length][JSON][float32
 * vectors]`. Replay stops at the first record that is cut short or fails its CRC (a crash in
 * the middle of an append) and says so. Every change is idempotent (an upsert replaces the
 * whole page), so replaying records a snapshot already holds is harmless.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { ChunkVector, PageFacets, PageInput } from "./shard.ts";

export type LogRecord =
  | { readonly op: "upsert"; readonly page: PageInput }
  | { readonly op: "remove"; readonly pageId: string }
  | { readonly op: "facets"; readonly pageId: string; readonly facets: PageFacets }
  | { readonly op: "vectors"; readonly vectors: readonly ChunkVector[] };

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** One record's bytes. */
export function encodeRecord(record: LogRecord): Uint8Array {
  const vectors: ArrayLike<number>[] = [];
  let json: unknown;
  if (record.op === "upsert") {
    const { chunks, ...page } = record.page;
    json = {
      op: "upsert",
      page: {
        ...page,
        chunks: chunks.map((c) => {
          if (c.vector) vectors.push(c.vector);
          return { heading: c.heading, text: c.text, v: Boolean(c.vector) };
        }),
      },
    };
  } else if (record.op === "vectors") {
    json = { op: "vectors", ids: record.vectors.map((v) => v.chunkId) };
    for (const v of record.vectors) vectors.push(v.vector);
  } else {
    json = record;
  }
  const head = encoder.encode(JSON.stringify(json));
  const dim = vectors[0]?.length ?? 0;
  const payload = new Uint8Array(8 + head.byteLength + vectors.length * dim * 4);
  const view = new DataView(payload.buffer);
  view.setUint32(0, head.byteLength, true);
  view.setUint32(4, dim, true);
  payload.set(head, 8);
  let at = 8 + head.byteLength;
  for (const v of vectors) {
    if (v.length !== dim) throw new RangeError("vectors of one record differ in length");
    for (let i = 0; i < dim; i++, at += 4) view.setFloat32(at, v[i] as number, true);
  }
  const out = new Uint8Array(8 + payload.byteLength);
  const outView = new DataView(out.buffer);
  outView.setUint32(0, payload.byteLength, true);
  outView.setUint32(4, Bun.hash.crc32(payload), true);
  out.set(payload, 8);
  return out;
}

function decodePayload(payload: Uint8Array): LogRecord {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const headLength = view.getUint32(0, true);
  const dim = view.getUint32(4, true);
  const json = JSON.parse(decoder.decode(payload.subarray(8, 8 + headLength)));
  let at = 8 + headLength;
  const nextVector = (): Float32Array => {
    const v = new Float32Array(dim);
    for (let i = 0; i < dim; i++, at += 4) v[i] = view.getFloat32(at, true);
    return v;
  };
  if (json.op === "upsert") {
    const chunks = (json.page.chunks as { heading: string; text: string; v: boolean }[]).map(
      (c) => ({
        heading: c.heading,
        text: c.text,
        vector: c.v ? nextVector() : null,
      }),
    );
    return { op: "upsert", page: { ...json.page, chunks } };
  }
  if (json.op === "vectors") {
    return {
      op: "vectors",
      vectors: (json.ids as string[]).map((chunkId) => ({ chunkId, vector: nextVector() })),
    };
  }
  return json as LogRecord;
}

/** The records of a log file, and whether it ended in a damaged record. */
export async function readLog(path: string): Promise<{ records: LogRecord[]; torn: boolean }> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { records: [], torn: false };
    throw err;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: LogRecord[] = [];
  let at = 0;
  while (at < bytes.byteLength) {
    if (at + 8 > bytes.byteLength) return { records, torn: true };
    const length = view.getUint32(at, true);
    const crc = view.getUint32(at + 4, true);
    if (at + 8 + length > bytes.byteLength) return { records, torn: true };
    const payload = bytes.subarray(at + 8, at + 8 + length);
    if (Bun.hash.crc32(payload) !== crc) return { records, torn: true };
    try {
      records.push(decodePayload(payload));
    } catch {
      return { records, torn: true };
    }
    at += 8 + length;
  }
  return { records, torn: false };
}

/** An open log file that records are appended to. */
export class LogWriter {
  readonly path: string;
  readonly generation: number;
  #fd: number | null;
  #bytes = 0;

  constructor(path: string, generation: number) {
    this.path = path;
    this.generation = generation;
    this.#fd = openSync(path, "a");
  }

  /** Bytes appended through this writer. */
  get bytes(): number {
    return this.#bytes;
  }

  append(record: LogRecord): void {
    if (this.#fd === null) throw new Error("the shard log is closed");
    const bytes = encodeRecord(record);
    let at = 0;
    while (at < bytes.byteLength) at += writeSync(this.#fd, bytes, at, bytes.byteLength - at);
    this.#bytes += bytes.byteLength;
  }

  /** fsync and close. */
  close(): void {
    if (this.#fd === null) return;
    fsyncSync(this.#fd);
    closeSync(this.#fd);
    this.#fd = null;
  }
}
