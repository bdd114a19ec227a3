import { expect, test } from "bun:test";
import { ServiceError } from "../../../src/services/errors.ts";
import {
  checkSlug,
  parseLocales,
  parsePublishedAfter,
  splitList,
} from "../../../src/services/params.ts";
import { RateLimiter } from "../../../src/services/rate-limiter.ts";

test("published_after: a date as given, a time as the UTC day before", () => {
  expect(parsePublishedAfter("2026-03-02")).toEqual({ applied: "2026-03-02", after: "2026-03-02" });
  expect(parsePublishedAfter("2026-03-02T09:00:00Z")).toEqual({
    applied: "2026-03-02T09:00:00Z",
    after: "2026-03-01",
  });
  expect(parsePublishedAfter("2026-03-01T00:30:00+01:00")).toEqual({
    applied: "2026-02-28T23:30:00Z",
    after: "2026-02-27",
  });
  expect(parsePublishedAfter("2024-03-01T00:00:00.5z")?.after).toBe("2024-02-29");
  expect(parsePublishedAfter(undefined)).toBeNull();
  for (const bad of [
    "2026-13-01",
    "2026-02-29",
    "yesterday",
    "2026-03-02T25:00:00Z",
    "0000-01-01",
    "0001-01-01T00:00:00Z",
  ]) {
    expect(() => parsePublishedAfter(bad)).toThrow(ServiceError);
  }
});

test("lists are trimmed, lowercased, deduplicated and checked against a vocabulary", () => {
  expect(splitList("type", " Docs, blog,docs ", ["docs", "blog"])).toEqual(["docs", "blog"]);
  expect(() => splitList("type", "docs,zine", ["docs"])).toThrow(
    "unknown value(s) zine; allowed: docs",
  );
  expect(() => splitList("type", " , ")).toThrow("type: must not be empty");
});

test("locales are normalized as pages store them", () => {
  expect(parseLocales("EN-us,de,iw,zh-hant-tw")).toEqual(["en-US", "de", "he", "zh-Hant-TW"]);
  expect(() => parseLocales("english!")).toThrow("not a BCP 47 tag");
});

test("slugs", () => {
  expect(checkSlug(" Widgets ")).toBe("widgets");
  for (const bad of ["", "-x", "a b", "x".repeat(64)])
    expect(() => checkSlug(bad)).toThrow("slug:");
});

test("the rate limiter counts starts per key in a sliding minute and gives back refused ones", () => {
  let now = 0;
  const limiter = new RateLimiter(2, () => now);
  limiter.take("a");
  now = 10_000;
  limiter.take("a");
  expect(() => limiter.take("a")).toThrow("at most 2 crawl starts per minute");
  limiter.take("b");
  try {
    limiter.take("a");
  } catch (err) {
    expect((err as ServiceError).headers["Retry-After"]).toBe("50");
  }
  now = 60_001;
  limiter.take("a");
  expect(() =>
    limiter.withSlot("c", () => {
      throw new Error("refused");
    }),
  ).toThrow("refused");
  limiter.withSlot("c", () => 1);
  limiter.withSlot("c", () => 1);
  expect(() => limiter.take("c")).toThrow(ServiceError);
});
