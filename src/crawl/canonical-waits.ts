/**
 * Pages waiting for the fate of their canonical URL (issue 31). A page that names another URL
 * as its canonical is a `duplicate` of it only once that URL is in the index; when the canonical
 * cannot be fetched (refused, 4xx/5xx, robots.txt, redirected, the budget) the page is kept
 * under the URL that answered. While the canonical's visit is still to come (it is fetched next:
 * it goes to the front of the frontier) or under way, the page waits here with its processed
 * content, its ledger row still `pending`. Bounded: past `MAX_WAITING_PAGES` pages or
 * `MAX_WAITING_CHARS` characters of content, a page is kept under its own URL at once.
 */
import type { UrlEntry } from "../db/ledger-repo.ts";
import type { FetchMeta } from "./messages.ts";
import type { ProcessedPage } from "./process-page.ts";

export interface WaitingPage {
  readonly entry: UrlEntry;
  readonly pageId: string;
  /** The canonical URL the page declares (normalized). */
  readonly canonical: string;
  readonly fetch: FetchMeta;
  readonly page: ProcessedPage;
  readonly chars: number;
}

export const MAX_WAITING_PAGES = 512;
export const MAX_WAITING_CHARS = 64 * 1024 * 1024;

/** The frontier priority of a canonical a page waits for: before everything else. */
export const AWAITED_PRIORITY = -2;

/** About what a processed page holds in memory, in characters. */
export function pageChars(page: ProcessedPage): number {
  let n = page.doc.markdown.length + 100 * page.doc.links.length;
  for (const chunk of page.chunks) n += chunk.text.length;
  return n;
}

export class CanonicalWaits {
  /** The pages waiting on each canonical URL. */
  readonly #byTarget = new Map<string, WaitingPage[]>();
  /** The canonical URL each waiting page waits on. */
  readonly #targetOf = new Map<string, string>();
  #chars = 0;

  get size(): number {
    return this.#targetOf.size;
  }

  /** The URL `url` waits on, when it waits. */
  targetOf(url: string): string | undefined {
    return this.#targetOf.get(url);
  }

  /** Whether a page of `chars` characters may wait. */
  fits(chars: number): boolean {
    return this.size < MAX_WAITING_PAGES && this.#chars + chars <= MAX_WAITING_CHARS;
  }

  add(page: WaitingPage): void {
    const list = this.#byTarget.get(page.canonical);
    if (list) list.push(page);
    else this.#byTarget.set(page.canonical, [page]);
    this.#targetOf.set(page.entry.url, page.canonical);
    this.#chars += page.chars;
  }

  /** Takes the pages waiting on `target`. */
  take(target: string): WaitingPage[] {
    const list = this.#byTarget.get(target);
    if (!list) return [];
    this.#byTarget.delete(target);
    for (const page of list) {
      this.#targetOf.delete(page.entry.url);
      this.#chars -= page.chars;
    }
    return list;
  }

  /** Takes every page still waiting. */
  takeAll(): WaitingPage[] {
    return [...this.#byTarget.keys()].flatMap((target) => this.take(target));
  }
}
