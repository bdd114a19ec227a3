/** Times the crawler writes, as the domain record shows them (RFC 3339 UTC, or null). */
import { expect, test } from "bun:test";
import { isoTime } from "../../../src/services/domains-service.ts";

test.each([
  ["Sun, 01 Nov 2026 08:00:00 GMT", "2026-11-01T08:00:00Z"],
  ["2026-11-01T10:00:01Z", "2026-11-01T10:00:01Z"],
  ["2026-11-01T11:00:01+01:00", "2026-11-01T10:00:01Z"],
  [1_793_523_601, "2026-11-01T09:00:01Z"],
  ["not a time", null],
  ["", null],
  [null, null],
] as [string | number | null, string | null][])("%p → %p", (value, expected) => {
  expect(isoTime(value)).toBe(expected);
});
