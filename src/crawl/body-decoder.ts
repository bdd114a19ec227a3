/**
 * Content-Encoding decoding in bounded pieces, for http-exchange.ts.
 *
 * Bun's fetch would decompress on its HTTP thread, a whole network read at a time, into one
 * growing buffer, whatever the reader of the body does: under load a read of a few hundred KiB of
 * a gzip bomb became a few hundred MiB before the body cap saw the first byte of it (eight 2 GiB
 * bombs at once: peak RSS +300 to +450 MB with a 10 MiB cap, where the cap promised ~80 MB). So
 * the exchange asks for the raw bytes (`decompress: false`) and inflates them here: one network
 * chunk at a time, in pieces of at most `DECODE_PIECE_BYTES`, each handed to `onPiece` before
 * the next is inflated; when `onPiece` says stop, the inflater is destroyed at once and nothing
 * more is inflated. What Bun decoded is decoded alike: `gzip`/`x-gzip`, `deflate` (zlib-wrapped,
 * or raw deflate as some servers send it), `br` and `zstd`, any case; other values (`identity`, a
 * list of codings, an unknown one) leave the body as it came.
 */
import type { Transform } from "node:stream";
import {
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  createZstdDecompress,
  constants as z,
} from "node:zlib";

/** The largest piece the inflater produces before the cap is checked again. */
export const DECODE_PIECE_BYTES = 64 * 1024;

export type Coding = "gzip" | "deflate" | "br" | "zstd";

const CODINGS: Readonly<Record<string, Coding>> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "br",
  zstd: "zstd",
};

/** The coding a `Content-Encoding` value asks us to undo, or null to keep the bytes as they are. */
export function codingOf(header: string | undefined): Coding | null {
  return CODINGS[(header ?? "").trim().toLowerCase()] ?? null;
}

/** RFC 1950 §2.2: CM 8, CINFO 0..7, (CMF << 8 | FLG) % 31 == 0. */
function isZlibHeader(bytes: Uint8Array): boolean {
  const cmf = bytes[0] ?? 0;
  const flg = bytes[1] ?? 0;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

function inflater(coding: Coding, first: Uint8Array): Transform {
  const options = { chunkSize: DECODE_PIECE_BYTES };
  switch (coding) {
    case "gzip":
      return createGunzip(options);
    case "deflate":
      return isZlibHeader(first) ? createInflate(options) : createInflateRaw(options);
    case "br":
      return createBrotliDecompress(options);
    case "zstd":
      // RFC 9659: a zstd Content-Encoding uses a window of at most 8 MiB; a frame asking for more
      // (up to 128 MiB by default) is refused rather than allocated.
      return createZstdDecompress({ ...options, params: { [z.ZSTD_d_windowLogMax]: 23 } });
  }
}

/** A decoding error (corrupt, truncated or unsupported data). */
export class DecodeError extends Error {}

/**
 * Inflates one body. `write` each network chunk in order (awaiting each), then `end`; `onPiece`
 * gets the inflated bytes piece by piece and returns false to stop: the inflater is destroyed
 * and every later `write` or `end` returns at once.
 */
export class BodyDecoder {
  readonly coding: Coding;
  readonly #onPiece: (piece: Uint8Array) => boolean;
  #inflater: Transform | null = null;
  /** Bytes held until the first two are known (`deflate` picks zlib or raw by them). */
  #held: Uint8Array | null = null;
  #stopped = false;

  constructor(coding: Coding, onPiece: (piece: Uint8Array) => boolean) {
    this.coding = coding;
    this.#onPiece = onPiece;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.#stopped || chunk.byteLength === 0) return;
    let bytes = chunk;
    if (!this.#inflater) {
      if (this.#held) bytes = Buffer.concat([this.#held, chunk]);
      if (this.coding === "deflate" && bytes.byteLength < 2) {
        this.#held = bytes;
        return;
      }
      this.#held = null;
      this.#start(bytes);
    }
    await this.#settle((t, done) => t.write(bytes, () => done()));
  }

  /** The end of the body: flushes the inflater (a truncated stream is a DecodeError). */
  async end(): Promise<void> {
    if (this.#stopped) return;
    if (!this.#inflater) {
      if (!this.#held) return; // no body bytes at all: nothing to inflate
      this.#start(this.#held);
      const held = this.#held;
      this.#held = null;
      await this.#settle((t, done) => t.write(held, () => done()));
      if (this.#stopped) return;
    }
    await this.#settle((t, done) => {
      t.once("end", done);
      t.end();
    });
  }

  /** Stops inflating and frees the inflater. */
  close(): void {
    this.#stopped = true;
    this.#inflater?.destroy();
  }

  #start(first: Uint8Array): void {
    const t = inflater(this.coding, first);
    t.on("data", (piece: Uint8Array) => {
      if (this.#stopped) return;
      if (!this.#onPiece(piece)) this.close();
    });
    t.on("error", () => {}); // reported through #settle
    this.#inflater = t;
  }

  /** Runs `step` and waits until it is done, the inflater stopped, or failed. */
  #settle(step: (t: Transform, done: () => void) => void): Promise<void> {
    const t = this.#inflater;
    if (!t || this.#stopped) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const finish = (err?: unknown) => {
        t.off("error", onError);
        t.off("close", onClose);
        if (err === undefined || this.#stopped) resolve();
        else {
          this.close();
          reject(new DecodeError(`${this.coding}: ${(err as Error).message ?? String(err)}`));
        }
      };
      const onError = (err: unknown) => finish(err ?? new Error("decoding failed"));
      const onClose = () => finish();
      t.once("error", onError);
      t.once("close", onClose);
      step(t, () => finish());
    });
  }
}
