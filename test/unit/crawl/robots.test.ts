import { describe, expect, test } from "bun:test";
import { type FetchResult, failed } from "../../../src/crawl/fetch-result.ts";
import {
  MAX_ROBOTS_BYTES,
  policyFromFetch,
  productToken,
  RobotsPolicy,
  robotsUrl,
} from "../../../src/crawl/robots.ts";
import { RobotsCache } from "../../../src/crawl/robots-cache.ts";
import { GOOGLE_CASES } from "./robots-cases.ts";

const U = "http://foo.bar";
const allowed = (robots: string | Uint8Array, agent: string, url: string) =>
  RobotsPolicy.parse(robots, agent, `${U}/robots.txt`).allowed(url);
const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(
    parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)),
  );

test.each(GOOGLE_CASES.map((c, i) => [i, ...c] as const))(
  "case %i: %p as %p for %p: %p",
  (_i, robots, agent, url, expected) => {
    expect(allowed(robots, agent, url)).toBe(expected);
  },
);

test("an unencoded URL matches an encoded rule (Google: callers must encode; ours are normalized)", () => {
  expect(
    allowed(
      "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/\u30c4\n",
      "FooBot",
      `${U}/foo/bar/\u30c4`,
    ),
  ).toBe(true);
});

test("escapes of unreserved characters are the same path (RFC 3986; Google differs)", () => {
  expect(
    allowed(
      "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n",
      "FooBot",
      `${U}/foo/bar/baz`,
    ),
  ).toBe(true);
});

describe("byte order marks", () => {
  test.each([[[0xef, 0xbb, 0xbf]], [[0xef, 0xbb]], [[0xef]]])("%p is skipped", (prefix) => {
    const body = bytes(prefix, "User-Agent: foo\nDisallow: /AnyValue\n");
    expect(allowed(body, "foo", `${U}/AnyValue`)).toBe(false);
    expect(allowed(body, "foo", `${U}/other`)).toBe(true);
  });
  test("a broken BOM garbles the first line", () => {
    expect(
      allowed(
        bytes([0xef, 0x11, 0xbf], "User-Agent: foo\nDisallow: /AnyValue\n"),
        "foo",
        `${U}/AnyValue`,
      ),
    ).toBe(true);
  });
  test("a BOM in the middle is garbage", () => {
    expect(
      allowed(
        bytes("User-Agent: foo\n", [0xef, 0xbb, 0xbf], "Disallow: /AnyValue\n"),
        "foo",
        `${U}/AnyValue`,
      ),
    ).toBe(true);
  });
});

test("sitemaps anywhere, resolved and deduplicated", () => {
  const body =
    "Sitemap: http://foo.bar/sitemap.xml\nUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n" +
    "sitemap: /relative-sitemap.xml\nSitemap: http://foo.bar/sitemap.xml\nSitemap: ftp://foo.bar/nope.xml\n";
  const policy = RobotsPolicy.parse(body, "webcorpus", "https://foo.bar/robots.txt");
  expect(policy.sitemaps).toEqual([
    "http://foo.bar/sitemap.xml",
    "https://foo.bar/relative-sitemap.xml",
  ]);
});

test("Crawl-delay follows the selected group", () => {
  const body =
    "User-agent: *\nCrawl-delay: 5\n\nUser-agent: webcorpus\nCrawl-delay: 0.5\nAllow: /\n";
  expect(RobotsPolicy.parse(body, "webcorpus/1.0").crawlDelayS).toBe(0.5);
  expect(RobotsPolicy.parse(body, "otherbot").crawlDelayS).toBe(5);
  expect(RobotsPolicy.parse("User-agent: *\nDisallow:\n", "x").crawlDelayS).toBeNull();
  expect(RobotsPolicy.parse("User-agent: *\nCrawl-delay: soon\n", "x").crawlDelayS).toBeNull();
});

test("only the first 500 KiB are read", () => {
  const filler = `# ${"x".repeat(1000)}\n`;
  const body = `User-agent: *\n${filler.repeat(Math.floor(MAX_ROBOTS_BYTES / filler.length) + 1)}Disallow: /late\n`;
  expect(body.length).toBeGreaterThan(MAX_ROBOTS_BYTES);
  expect(allowed(body, "webcorpus", `${U}/late`)).toBe(true);
  expect(allowed("User-agent: *\nDisallow: /late\n", "webcorpus", `${U}/late`)).toBe(false);
});

test("a body cut at 500 KiB ends at its last whole line: a rule cut in half is not read", () => {
  // `Disallow: /api/` straddles the 500 KiB mark: read half, it would be `Disallow: /` (all).
  const head = "User-agent: *\nDisallow: /private/\n";
  const rule = "Disallow: /api/\n";
  const filler = "#".repeat(MAX_ROBOTS_BYTES - head.length - 11 - 1);
  const body = `${head}${filler}\n${rule}${"# more\n".repeat(10)}`;
  expect(body.slice(MAX_ROBOTS_BYTES - 1, MAX_ROBOTS_BYTES)).toBe("/"); // the cut: "Disallow: /"
  for (const policy of [
    RobotsPolicy.parse(body, "webcorpus"), // a longer body, cut here
    RobotsPolicy.parse(body.slice(0, MAX_ROBOTS_BYTES), "webcorpus", null, 200, true), // by the fetch
    policyFromFetch(
      {
        ...failed("http://foo.bar/robots.txt", "connect", ""),
        error: null,
        status: 200,
        body: new TextEncoder().encode(body.slice(0, MAX_ROBOTS_BYTES)),
        truncated: true,
      },
      "webcorpus",
    ),
  ]) {
    expect(policy.status).toBe("ok");
    expect(policy.allowed(`${U}/private/x`)).toBe(false);
    expect(policy.allowed(`${U}/docs/`)).toBe(true);
    expect(policy.allowed(`${U}/api/x`)).toBe(true); // its rule was past the last whole line
  }
  // A body that is whole keeps its last line, newline or not.
  expect(allowed("User-agent: *\nDisallow: /x", "webcorpus", `${U}/x`)).toBe(false);
});

test("robots.txt itself is always allowed", () => {
  expect(allowed("User-agent: *\nDisallow: /\n", "webcorpus", `${U}/robots.txt`)).toBe(true);
});

test.each([
  ["webcorpus/0.1.0 (+https://github.com/webcorpus/webcorpus)", "webcorpus"],
  ["Googlebot/2.1", "googlebot"],
  ["Foo_Bar-Baz", "foo_bar-baz"],
  ["  spaced bot", "spaced"],
  ["", ""],
])("product token of %p is %p", (agent, token) => {
  expect(productToken(agent)).toBe(token);
});

describe("fetch outcomes", () => {
  const UA = "webcorpus/0.1.0";
  const ROBOTS = "https://example.com/robots.txt";
  const fetched = (
    status: number,
    body = "",
    headers: Record<string, string> = {},
  ): FetchResult => ({
    url: ROBOTS,
    status,
    headers,
    body: new TextEncoder().encode(body),
    elapsedMs: 1,
    error: null,
    attempts: 1,
    address: "127.0.0.1",
    redirects: [],
  });

  test("2xx is parsed", () => {
    const policy = policyFromFetch(fetched(200, "User-agent: *\nDisallow: /private\n"), UA);
    expect([policy.status, policy.httpStatus]).toEqual(["ok", 200]);
    expect(policy.allowed("https://example.com/private/x")).toBe(false);
    expect(policy.allowed("https://example.com/public")).toBe(true);
  });

  test("an HTML soft 404 allows all", () => {
    const policy = policyFromFetch(fetched(200, "<html><body>Not found</body></html>"), UA);
    expect(policy.status).toBe("ok");
    expect(policy.allowed("https://example.com/anything")).toBe(true);
  });

  test.each([400, 401, 403, 404, 410, 418, 451])("%p allows all", (status) => {
    const policy = policyFromFetch(fetched(status, "User-agent: *\nDisallow: /\n"), UA);
    expect(policy.status).toBe("missing");
    expect(policy.allowed("https://example.com/x")).toBe(true);
    expect(policy.crawlDelayS).toBeNull();
  });

  test.each([429, 500, 502, 503, 504, 599])("%p disallows all", (status) => {
    const policy = policyFromFetch(fetched(status), UA);
    expect(policy.status).toBe("unreachable");
    expect(policy.allowed("https://example.com/")).toBe(false);
  });

  test.each(["dns", "connect", "timeout", "ssrf", "protocol", "too_large", "redirect"] as const)(
    "no answer (%p) disallows all",
    (kind) => {
      const policy = policyFromFetch(failed(ROBOTS, kind, "boom"), UA);
      expect(policy.status).toBe("unreachable");
      expect(policy.allowed("https://example.com/")).toBe(false);
    },
  );

  test("a redirect left unfollowed counts as missing", () => {
    const policy = policyFromFetch(fetched(301, "", { location: "/elsewhere" }), UA);
    expect(policy.status).toBe("missing");
    expect(policy.allowed("https://example.com/x")).toBe(true);
  });

  test("none yet allows nothing", () => {
    const policy = RobotsPolicy.noneYet(UA);
    expect(policy.status).toBe("none yet");
    expect(policy.allowed("https://example.com/")).toBe(false);
    expect(policy.sitemaps).toEqual([]);
  });
});

test("robotsUrl", () => {
  expect(robotsUrl("https://Docs.Python.org/3/library/?x=1")).toBe(
    "https://docs.python.org/robots.txt",
  );
  expect(robotsUrl("http://127.0.0.1:8080/a")).toBe("http://127.0.0.1:8080/robots.txt");
});

describe("RobotsCache", () => {
  const clock = () => {
    const c = { now: 1_000_000, fn: () => c.now };
    return c;
  };
  const ok = RobotsPolicy.parse("User-agent: *\nDisallow: /x\n", "webcorpus");

  test("expires after max age; keyed by origin", () => {
    const c = clock();
    const cache = new RobotsCache({ now: c.fn });
    cache.put("https://example.com/some/page", ok);
    expect(cache.get("https://example.com/robots.txt")).toBe(ok);
    expect(cache.get("https://example.com")).toBe(ok);
    expect(cache.get("http://example.com/")).toBeNull();
    expect(cache.get("https://www.example.com/")).toBeNull();
    c.now += 24 * 3600 * 1000 - 1;
    expect(cache.get("https://example.com/")).toBe(ok);
    c.now += 2;
    expect(cache.get("https://example.com/")).toBeNull();
    expect(cache.size).toBe(0);
  });

  test("unreachable is asked again sooner", () => {
    const c = clock();
    const cache = new RobotsCache({ now: c.fn, retryAfterMs: 300_000 });
    cache.put("https://example.com/", RobotsPolicy.disallowAll("x"));
    expect(cache.get("https://example.com/")).not.toBeNull();
    c.now += 300_001;
    expect(cache.get("https://example.com/")).toBeNull();
  });

  test("none yet is not stored", () => {
    const cache = new RobotsCache();
    cache.put("https://example.com/", RobotsPolicy.noneYet("x"));
    expect(cache.get("https://example.com/")).toBeNull();
  });
});
