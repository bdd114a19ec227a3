/** The pending URLs of one job in priority order (lower first; ties in insertion order). */
import type { UrlEntry } from "../db/ledger-repo.ts";

/** Breadth first; the entry page first; sitemap URLs rank with depth-1 links. */
export function priorityFor(depth: number, source: string): number {
  if (source === "entry") return -1;
  if (source === "sitemap") return 1.5;
  return depth;
}

interface Item {
  readonly priority: number;
  readonly seq: number;
  readonly entry: UrlEntry;
}

const before = (a: Item, b: Item) =>
  a.priority < b.priority || (a.priority === b.priority && a.seq < b.seq);

export class Frontier {
  readonly #heap: Item[] = [];
  #seq = 0;

  get size(): number {
    return this.#heap.length;
  }

  push(entry: UrlEntry): void {
    const heap = this.#heap;
    heap.push({ priority: entry.priority, seq: this.#seq++, entry });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Item, heap[parent] as Item)) break;
      [heap[i], heap[parent]] = [heap[parent] as Item, heap[i] as Item];
      i = parent;
    }
  }

  pop(): UrlEntry | null {
    const heap = this.#heap;
    const top = heap[0];
    if (!top) return null;
    const last = heap.pop() as Item;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l] as Item, heap[m] as Item)) m = l;
        if (r < heap.length && before(heap[r] as Item, heap[m] as Item)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m] as Item, heap[i] as Item];
        i = m;
      }
    }
    return top.entry;
  }
}
