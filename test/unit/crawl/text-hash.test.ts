import { describe, expect, test } from "bun:test";
import { textHash } from "../../../src/crawl/process-page.ts";

describe("textHash", () => {
  test("ignores whitespace runs, leading and trailing space, and case", () => {
    expect(textHash("  Hello,\t\tWorld\n\nagain \u00a0")).toBe(textHash("hello, world again"));
  });

  test("tells different words apart", () => {
    expect(textHash("hello world")).not.toBe(textHash("hello  worlds"));
    expect(textHash("helloworld")).not.toBe(textHash("hello world"));
  });

  test("is 32 hex digits", () => {
    expect(textHash("x")).toMatch(/^[0-9a-f]{32}$/);
  });
});
