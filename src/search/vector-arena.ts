/**
 * One WebAssembly memory and kernel instance shared by every vector store of the process. A
 * kernel instance per shard cost ~14 ms each once tens of them were alive (JSC reserves address
 * space per wasm memory and collects garbage to find more: 30 shards took 4.8 s to load instead
 * of 0.5), so stores take blocks of this arena instead: first fit over a free list, neighbours
 * merged on free, the memory grown when nothing fits (it never shrinks; its peak follows the
 * shard memory budget). A store gives its block back with `free` (eviction) or, failing that,
 * when it is garbage collected.
 *
 * Views of the memory must be made after each `alloc` (growing the memory detaches the old
 * buffer); searches are synchronous, so one scratch area serves every scan.
 */
import { createVectorKernel, type VectorKernel } from "./vector-kernel.ts";

const PAGE = 65536;
const ALIGN = 16;

interface Block {
  offset: number;
  size: number;
}

export class VectorArena {
  readonly kernel: VectorKernel;
  #free: Block[] = [];
  #end = 0;
  #scratch: Block = { offset: 0, size: 0 };
  readonly #finalizer = new FinalizationRegistry<Block>((block) => this.#release(block));

  constructor() {
    this.kernel = createVectorKernel();
    this.#end = 0;
  }

  get buffer(): ArrayBuffer {
    return this.kernel.memory.buffer as ArrayBuffer;
  }

  /** Bytes of the memory (in use or free: the memory never shrinks). */
  get bytes(): number {
    return this.buffer.byteLength;
  }

  /** Bytes in blocks, scratch included. */
  get used(): number {
    return this.#end - this.#free.reduce((n, b) => n + b.size, 0);
  }

  /** A block of at least `size` bytes, given back when `owner` is collected (or by `free`). */
  alloc(size: number, owner?: object): number {
    const want = Math.max(ALIGN, Math.ceil(size / ALIGN) * ALIGN);
    let offset = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const block = this.#free[i] as Block;
      if (block.size < want) continue;
      offset = block.offset;
      if (block.size === want) this.#free.splice(i, 1);
      else {
        block.offset += want;
        block.size -= want;
      }
      break;
    }
    if (offset < 0) {
      offset = this.#end;
      this.#end += want;
      const have = this.buffer.byteLength;
      if (this.#end > have) this.kernel.memory.grow(Math.ceil((this.#end - have) / PAGE));
    }
    if (owner) this.#finalizer.register(owner, { offset, size: want }, owner);
    return offset;
  }

  /** Moves `owner`'s block to one of `size` bytes, keeping its first `keep` bytes. */
  realloc(owner: object, offset: number, oldSize: number, size: number, keep: number): number {
    this.#finalizer.unregister(owner);
    const moved = this.alloc(size, owner);
    new Uint8Array(this.buffer).copyWithin(moved, offset, offset + keep);
    this.#release({ offset, size: Math.max(ALIGN, Math.ceil(oldSize / ALIGN) * ALIGN) });
    return moved;
  }

  /** Gives back a block taken for `owner`. */
  free(offset: number, size: number, owner?: object): void {
    if (owner) this.#finalizer.unregister(owner);
    this.#release({ offset, size: Math.max(ALIGN, Math.ceil(size / ALIGN) * ALIGN) });
  }

  #release(block: Block): void {
    let i = 0;
    while (i < this.#free.length && (this.#free[i] as Block).offset < block.offset) i++;
    this.#free.splice(i, 0, { ...block });
    // Merge with the next, then the previous neighbour.
    const here = this.#free[i] as Block;
    const next = this.#free[i + 1];
    if (next && here.offset + here.size === next.offset) {
      here.size += next.size;
      this.#free.splice(i + 1, 1);
    }
    const prev = this.#free[i - 1];
    if (prev && prev.offset + prev.size === here.offset) {
      prev.size += here.size;
      this.#free.splice(i, 1);
    }
    // A free block at the end goes back to the unused tail.
    const last = this.#free[this.#free.length - 1];
    if (last && last.offset + last.size === this.#end) {
      this.#end = last.offset;
      this.#free.pop();
    }
  }

  /** A scratch block of at least `size` bytes for one scan (valid until the next alloc). */
  scratch(size: number): number {
    if (this.#scratch.size < size) {
      if (this.#scratch.size > 0) this.free(this.#scratch.offset, this.#scratch.size);
      const grown = Math.max(size, this.#scratch.size * 2);
      this.#scratch = { offset: this.alloc(grown), size: Math.ceil(grown / ALIGN) * ALIGN };
    }
    return this.#scratch.offset;
  }
}

let shared: VectorArena | null = null;

/** The process's arena (created on first use). */
export function sharedArena(): VectorArena {
  shared ??= new VectorArena();
  return shared;
}
