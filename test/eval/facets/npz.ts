/**
 * A small reader of numpy `.npz` files (a zip of `.npy` arrays, stored or deflated): enough to
 * read the reference's facet_model.npz (float16/float32/int32 matrices and fixed-width unicode
 * strings). Used by export-model.ts only.
 */
import { inflateRawSync } from "node:zlib";

export type NpyArray =
  | { kind: "number"; shape: number[]; data: Float32Array | Int32Array | Float16Array }
  | { kind: "string"; shape: number[]; data: string[] };

function readEntries(zip: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error("npz: no end of central directory");
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("npz: bad central directory");
    const method = view.getUint16(at + 10, true);
    let compressed = view.getUint32(at + 20, true);
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    let local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLen));
    // zip64: sizes and offset in the extra field
    if (compressed === 0xffffffff || local === 0xffffffff) {
      let e = at + 46 + nameLen;
      const end = e + extraLen;
      while (e < end) {
        const id = view.getUint16(e, true);
        const size = view.getUint16(e + 2, true);
        if (id === 0x0001) {
          let f = e + 4;
          if (view.getUint32(at + 24, true) === 0xffffffff) f += 8;
          if (compressed === 0xffffffff) {
            compressed = Number(view.getBigUint64(f, true));
            f += 8;
          }
          if (local === 0xffffffff) local = Number(view.getBigUint64(f, true));
        }
        e += 4 + size;
      }
    }
    const dataAt = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = zip.subarray(dataAt, dataAt + compressed);
    out.set(name, method === 0 ? raw : new Uint8Array(inflateRawSync(raw)));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

function parseNpy(buf: Uint8Array): NpyArray {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const major = buf[6] ?? 1;
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  const header = new TextDecoder().decode(buf.subarray(start, start + headerLen));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1] ?? "";
  if (/'fortran_order':\s*True/.test(header)) throw new Error("npz: fortran order unsupported");
  const shape = (/'shape':\s*\(([^)]*)\)/.exec(header)?.[1] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  const body = buf.slice(start + headerLen);
  const n = shape.reduce((a, b) => a * b, 1);
  if (descr === "<f2") return { kind: "number", shape, data: new Float16Array(body.buffer, 0, n) };
  if (descr === "<f4") return { kind: "number", shape, data: new Float32Array(body.buffer, 0, n) };
  if (descr === "<i4") return { kind: "number", shape, data: new Int32Array(body.buffer, 0, n) };
  const u = /^<U(\d+)$/.exec(descr);
  if (u) {
    const width = Number(u[1]);
    const codes = new Uint32Array(body.buffer, 0, n * width);
    const data: string[] = [];
    for (let i = 0; i < n; i++) {
      let s = "";
      for (let j = 0; j < width; j++) {
        const c = codes[i * width + j] as number;
        if (c === 0) break;
        s += String.fromCodePoint(c);
      }
      data.push(s);
    }
    return { kind: "string", shape, data };
  }
  throw new Error(`npz: unsupported dtype ${descr}`);
}

export function readNpz(file: Uint8Array): Map<string, NpyArray> {
  const out = new Map<string, NpyArray>();
  for (const [name, bytes] of readEntries(file))
    out.set(name.replace(/\.npy$/, ""), parseNpy(bytes));
  return out;
}
