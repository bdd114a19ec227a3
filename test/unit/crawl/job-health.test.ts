/** A finished job that indexed almost nothing of what it fetched says so (job-health.ts). */
import { expect, test } from "bun:test";
import { indexedTooLittle } from "../../../src/crawl/job-health.ts";

test("the Debian handbook over http, before the canonical fix: 1 of 3,330 fetched pages reached the index", () => {
  const warning = indexedTooLittle([
    { bucket: "fetchError", count: 3306, reached: 0 },
    { bucket: "duplicate", count: 3328, reached: 0 },
    { bucket: "indexed", count: 1, reached: 1 },
    { bucket: "redirected", count: 1, reached: 0 },
  ]);
  expect(warning).toBe(
    "only 1 of 6,636 fetched pages reached the index (indexed, unchanged, or a duplicate of one that did); the rest: 3,328 duplicate of a page not indexed, 3,306 fetchError, 1 redirected",
  );
});

test("a healthy job, a small one, and one whose duplicates point at indexed pages: no warning", () => {
  expect(
    indexedTooLittle([
      { bucket: "indexed", count: 900, reached: 900 },
      { bucket: "clientError", count: 100, reached: 0 },
    ]),
  ).toBeNull();
  expect(indexedTooLittle([{ bucket: "clientError", count: 19, reached: 0 }])).toBeNull();
  expect(
    indexedTooLittle([
      { bucket: "duplicate", count: 300, reached: 300 },
      { bucket: "indexed", count: 3, reached: 3 },
    ]),
  ).toBeNull();
});

test("exactly at the threshold: a tenth reached is enough", () => {
  expect(
    indexedTooLittle([
      { bucket: "indexed", count: 2, reached: 2 },
      { bucket: "notHtml", count: 18, reached: 0 },
    ]),
  ).toBeNull();
  expect(
    indexedTooLittle([
      { bucket: "indexed", count: 1, reached: 1 },
      { bucket: "notHtml", count: 19, reached: 0 },
    ]),
  ).toContain("only 1 of 20 fetched pages");
});
