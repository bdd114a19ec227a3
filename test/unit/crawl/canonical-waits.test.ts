/** Pages waiting for their canonical URL: by target, bounded in pages and characters. */
import { expect, test } from "bun:test";
import {
  CanonicalWaits,
  MAX_WAITING_CHARS,
  MAX_WAITING_PAGES,
  type WaitingPage,
} from "../../../src/crawl/canonical-waits.ts";
import type { FetchMeta } from "../../../src/crawl/messages.ts";
import type { ProcessedPage } from "../../../src/crawl/process-page.ts";

const fetch: FetchMeta = { status: 200, elapsedMs: 1, attempts: 1, error: null, headers: {} };

function waiting(url: string, canonical: string, chars = 10): WaitingPage {
  return {
    entry: {
      url,
      bucket: "pending",
      reason: null,
      depth: 1,
      source: "link",
      priority: 1,
      lastmod: null,
    },
    pageId: url,
    canonical,
    fetch,
    page: {} as ProcessedPage,
    chars,
  };
}

test("pages wait by target; taking a target frees them and their characters", () => {
  const waits = new CanonicalWaits();
  waits.add(waiting("http://a.test/1", "http://a.test/c"));
  waits.add(waiting("http://a.test/2", "http://a.test/c"));
  waits.add(waiting("http://a.test/c", "http://a.test/d"));
  expect(waits.size).toBe(3);
  expect(waits.targetOf("http://a.test/1")).toBe("http://a.test/c");
  expect(waits.targetOf("http://a.test/c")).toBe("http://a.test/d");
  expect(waits.take("http://a.test/c").map((w) => w.entry.url)).toEqual([
    "http://a.test/1",
    "http://a.test/2",
  ]);
  expect(waits.targetOf("http://a.test/1")).toBeUndefined();
  expect(waits.take("http://a.test/c")).toEqual([]);
  expect(waits.takeAll().map((w) => w.entry.url)).toEqual(["http://a.test/c"]);
  expect(waits.size).toBe(0);
});

test("bounded: past the page or character cap a page may not wait", () => {
  const waits = new CanonicalWaits();
  expect(waits.fits(MAX_WAITING_CHARS)).toBe(true);
  expect(waits.fits(MAX_WAITING_CHARS + 1)).toBe(false);
  waits.add(waiting("http://a.test/big", "http://a.test/c", MAX_WAITING_CHARS - 5));
  expect(waits.fits(5)).toBe(true);
  expect(waits.fits(6)).toBe(false);
  waits.take("http://a.test/c");
  expect(waits.fits(6)).toBe(true);
  for (let i = 0; i < MAX_WAITING_PAGES; i++)
    waits.add(waiting(`http://a.test/${i}`, "http://a.test/c", 1));
  expect(waits.fits(1)).toBe(false);
});
