/**
 * The compiled vector-kernel.wat (239 bytes of WebAssembly SIMD). Why: the exact scan in
 * JavaScript costs 28-41 ms per 60k int8 vectors on this machine (JSC, loop unrolled or not,
 * 19 ms with float32 rows), the kernel 1.4 ms: at 100k+ chunks a hybrid search stays far under
 * its 50 ms aim with every vector compared, as the reference's exact index did. Regenerate the
 * bytes after changing the .wat: test/unit/search/vector-kernel.test.ts prints them.
 */
export const VECTOR_KERNEL_WASM =
  "AGFzbQEAAAABCQFgBX9/f39/AAMCAQAFAwEAAQcRAgZtZW1vcnkCAARkb3RzAAAKvQEBugEDAn8CewF/IAEhCQJAA0AgBSACTw0B/QwAAAAAAAAAAAAAAAAAAAAAIQdBACEGAkADQCAGIANPDQEgCSAGav0ABAAhCCAHIAj9hwEgACAGQQF0av0ABAD9ugH9rgEhByAHIAj9iAEgACAGQQF0av0ABBD9ugH9rgEhByAGQRBqIQYMAAsLIAQgBUECdGogB/0bACAH/RsBaiAH/RsCIAf9GwNqajYCACAJIANqIQkgBUEBaiEFDAALCws=";

let compiled: WebAssembly.Module | null = null;

export interface VectorKernel {
  readonly memory: WebAssembly.Memory;
  /** out[i] = Σ_j q[j]·codes[i·dim + j] (q int16 at byte q, codes int8, out int32). */
  readonly dots: (q: number, codes: number, n: number, dim: number, out: number) => void;
}

/** A fresh kernel instance with its own memory (one per vector store). */
export function createVectorKernel(): VectorKernel {
  compiled ??= new WebAssembly.Module(Buffer.from(VECTOR_KERNEL_WASM, "base64"));
  const instance = new WebAssembly.Instance(compiled);
  return instance.exports as unknown as VectorKernel;
}
