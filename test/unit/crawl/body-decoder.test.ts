import { expect, test } from "bun:test";
import { brotliCompressSync, deflateRawSync, deflateSync, zstdCompressSync } from "node:zlib";
import {
  BodyDecoder,
  type Coding,
  codingOf,
  DECODE_PIECE_BYTES,
  DecodeError,
} from "../../../src/crawl/body-decoder.ts";

const TEXT = new TextEncoder().encode("hello hello hello ".repeat(5000));

async function decode(coding: Coding, body: Uint8Array, chunk = 7): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  const decoder = new BodyDecoder(coding, (p) => pieces.push(p) > 0);
  for (let at = 0; at < body.length; at += chunk)
    await decoder.write(body.subarray(at, at + chunk));
  await decoder.end();
  return Buffer.concat(pieces);
}

test("the codings Bun decoded are decoded alike; others are left as they came", () => {
  expect(["gzip", "X-Gzip", " deflate ", "br", "ZSTD"].map(codingOf)).toEqual([
    "gzip",
    "gzip",
    "deflate",
    "br",
    "zstd",
  ]);
  expect(["identity", "gzip, br", "compress", "", undefined].map(codingOf)).toEqual([
    null,
    null,
    null,
    null,
    null,
  ]);
});

test.each([
  ["gzip", Bun.gzipSync(TEXT)],
  ["deflate", deflateSync(TEXT)], // zlib-wrapped, as RFC 9110 says
  ["deflate", deflateRawSync(TEXT)], // raw, as some servers send it
  ["br", brotliCompressSync(TEXT)],
  ["zstd", zstdCompressSync(TEXT)],
] as const)("%p, fed a few bytes at a time", async (coding, body) => {
  expect(await decode(coding, body)).toEqual(Buffer.from(TEXT));
});

test("no body bytes: nothing to inflate, no error", async () => {
  expect((await decode("gzip", new Uint8Array(0))).byteLength).toBe(0);
});

test("corrupt or truncated data is a DecodeError", async () => {
  await expect(decode("gzip", new TextEncoder().encode("not gzip at all"))).rejects.toBeInstanceOf(
    DecodeError,
  );
  const gz = Bun.gzipSync(TEXT);
  await expect(decode("gzip", gz.subarray(0, gz.length - 10), 1024)).rejects.toBeInstanceOf(
    DecodeError,
  );
});

test("inflating stops at the piece the consumer refuses: a bomb is not inflated further", async () => {
  const bomb = Bun.gzipSync(new Uint8Array(64 << 20)); // 64 MiB of zeros, ~64 KiB compressed
  let seen = 0;
  const decoder = new BodyDecoder("gzip", (p) => {
    expect(p.byteLength).toBeLessThanOrEqual(DECODE_PIECE_BYTES);
    seen += p.byteLength;
    return seen <= 1 << 20;
  });
  await decoder.write(bomb); // the whole bomb in one write
  expect(decoder.stopped).toBe(true);
  expect(seen).toBeLessThanOrEqual((1 << 20) + DECODE_PIECE_BYTES);
  await decoder.write(bomb); // later writes and the end do nothing
  await decoder.end();
  expect(seen).toBeLessThanOrEqual((1 << 20) + DECODE_PIECE_BYTES);
});
