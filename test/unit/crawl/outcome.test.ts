import { expect, test } from "bun:test";
import { type FetchResult, failed } from "../../../src/crawl/fetch-result.ts";
import { fetchOutcome, sniffHtml } from "../../../src/crawl/outcome.ts";

const res = (status: number, headers: Record<string, string> = {}, body = ""): FetchResult => ({
  url: "https://example.com/a/page",
  status,
  headers,
  body: new TextEncoder().encode(body),
  elapsedMs: 1,
  error: null,
  attempts: 1,
  address: "93.184.216.34",
  redirects: [],
});

test.each([
  [res(200, { "content-type": "text/html; charset=utf-8" }), { kind: "page", status: 200 }],
  [res(200, { "content-type": "application/xhtml+xml" }), { kind: "page", status: 200 }],
  [res(200, {}, "  <!DOCTYPE html><html>"), { kind: "page", status: 200 }],
  // PDFs are pages (src/extract/pdf/), by type or by their first bytes.
  [res(200, { "content-type": "application/pdf" }), { kind: "page", status: 200 }],
  [res(200, {}, "%PDF-1.4"), { kind: "page", status: 200 }],
  [
    res(200, { "content-type": "application/octet-stream" }, "%PDF-1.7"),
    { kind: "page", status: 200 },
  ],
  [
    res(200, { "content-type": "image/png" }, "%PDF-1.4"),
    { bucket: "notHtml", reason: "content type image/png" },
  ],
  [res(200, {}, "plain words"), { bucket: "notHtml", reason: "content type unknown" }],
  [
    res(200, { "content-type": "text/html", "x-robots-tag": "noindex, nofollow" }),
    { bucket: "noindex" },
  ],
  [res(200, { "content-type": "text/html", "x-robots-tag": "none" }), { bucket: "noindex" }],
  [res(304), { bucket: "unchanged", reason: "304 not modified" }],
  [
    res(301, { location: "../other?utm_source=x#f" }),
    {
      bucket: "redirected",
      reason: "HTTP 301 to https://example.com/other",
      target: "https://example.com/other",
    },
  ],
  [
    res(302, { location: "file:///etc/passwd" }),
    { bucket: "fetchError", reason: "HTTP 302 with an unusable Location" },
  ],
  [res(302), { bucket: "fetchError" }],
  [res(404), { bucket: "clientError", reason: "HTTP 404" }],
  [res(410), { bucket: "clientError", reason: "HTTP 410" }],
  [res(429), { bucket: "clientError", reason: "HTTP 429" }],
  [res(500), { bucket: "serverError", reason: "HTTP 500" }],
  [res(103), { bucket: "fetchError", reason: "unexpected HTTP 103" }],
  [
    failed("https://example.com/", "too_large", "body over 10485760 bytes (decompressed)"),
    { bucket: "fetchError", reason: "too_large: body over 10485760 bytes (decompressed)" },
  ],
  [
    failed("https://example.com/", "ssrf", "address 127.0.0.1 is not public"),
    {
      bucket: "fetchError",
      reason:
        "refused by the address policy (SSRF guard): address 127.0.0.1 is not public; WEBCORPUS_ALLOW_NETWORKS allows a network",
    },
  ],
  [failed("https://example.com/", "robots", "disallowed"), { bucket: "robots" }],
] as const)("%#: outcome", (result, expected) => {
  expect(fetchOutcome(result)).toMatchObject(expected);
});

test("sniffHtml", () => {
  expect(sniffHtml(new TextEncoder().encode("\n<html lang=en>"))).toBe(true);
  expect(sniffHtml(new TextEncoder().encode("<?xml version='1.0'?><urlset/>"))).toBe(false);
});
