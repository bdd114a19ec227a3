import { describe, expect, test } from "bun:test";
import { testConfig } from "../../../src/config.ts";
import { screenUrl, TrapGuard, trapLimits } from "../../../src/crawl/trap-guard.ts";
import {
  inScope,
  looksLikeNonHtml,
  normalizeUrl,
  originOf,
  pageId,
  urlHost,
} from "../../../src/crawl/urls.ts";

describe("normalizeUrl", () => {
  const cases: [string, string | undefined, string][] = [
    ["HTTP://Example.COM", undefined, "http://example.com/"],
    ["https://example.com:443/a", undefined, "https://example.com/a"],
    ["http://example.com:80/a", undefined, "http://example.com/a"],
    ["http://example.com:8080/a", undefined, "http://example.com:8080/a"],
    ["https://example.com:80/a", undefined, "https://example.com:80/a"],
    ["http://example.com/a#section", undefined, "http://example.com/a"],
    ["http://example.com/a/./b/../c", undefined, "http://example.com/a/c"],
    ["http://example.com/../../a", undefined, "http://example.com/a"],
    ["http://example.com/a/b/..", undefined, "http://example.com/a/"],
    ["http://example.com/%7Euser/%7e", undefined, "http://example.com/~user/~"],
    ["http://example.com/a%2fb", undefined, "http://example.com/a%2Fb"],
    ["http://example.com/a b", undefined, "http://example.com/a%20b"],
    ["http://example.com/caf\u00e9", undefined, "http://example.com/caf%C3%A9"],
    ["http://example.com/100%", undefined, "http://example.com/100%25"],
    ["http://example.com/%2E%2E/x", undefined, "http://example.com/x"],
    ["http://example.com/a|b^c", undefined, "http://example.com/a%7Cb%5Ec"],
    ["http://example.com/?b=2&a=1", undefined, "http://example.com/?b=2&a=1"],
    ["http://example.com/?a=1&&b=&", undefined, "http://example.com/?a=1&b="],
    ["http://example.com/?q=a+b", undefined, "http://example.com/?q=a+b"],
    [
      "http://example.com/p?utm_source=x&id=3&UTM_Medium=y&gclid=1&fbclid=2",
      undefined,
      "http://example.com/p?id=3",
    ],
    ["http://example.com/p?PHPSESSID=abc&sid=1&page=2", undefined, "http://example.com/p?page=2"],
    ["http://example.com/p;jsessionid=ABC123?x=1", undefined, "http://example.com/p?x=1"],
    ["http://example.com/p?utm_source=x", undefined, "http://example.com/p"],
    ["https://user:pw@example.com/", undefined, "https://example.com/"],
    ["https://B\u00fccher.DE./x", undefined, "https://xn--bcher-kva.de/x"],
    ["https://example\uff0ecom\uff0e/", undefined, "https://example.com/"],
    ["http://2130706433/", undefined, "http://127.0.0.1/"],
    ["http://0x7f.1/", undefined, "http://127.0.0.1/"],
    ["http://[0:0::1]:8000/", undefined, "http://[::1]:8000/"],
    ["  https://example.com/\n ", undefined, "https://example.com/"],
    ["https://exa\tmple.com/", undefined, "https://example.com/"],
    ["http://example.com/a\\b", undefined, "http://example.com/a/b"],
    ["page.html", "https://example.com/dir/index.html", "https://example.com/dir/page.html"],
    ["../up", "https://example.com/a/b/c", "https://example.com/a/up"],
    ["//cdn.example.com/x", "https://example.com/", "https://cdn.example.com/x"],
    ["?q=1", "https://example.com/p?x=0", "https://example.com/p?q=1"],
    ["#top", "https://example.com/p", "https://example.com/p"],
    ["/a", "https://example.com:8443/x", "https://example.com:8443/a"],
  ];
  test.each(cases)("%p (base %p) -> %p", (url, base, expected) => {
    expect(normalizeUrl(url, base)).toBe(expected);
  });

  const rejects = [
    "mailto:a@example.com",
    "javascript:alert(1)",
    "ftp://example.com/file",
    "data:text/html,hi",
    "tel:+123",
    "file:///etc/passwd",
    "http:///path",
    "http://exa mple.com/",
    "http://example.com:99999/",
    "http://example.com:abc/",
    "http://256.0.0.1/",
    "http://[::1/",
    "http://a..b.com/",
    "",
    "not a url",
  ];
  test.each(rejects)("rejects %p", (url) => {
    expect(normalizeUrl(url)).toBeNull();
  });

  test("a relative URL without a base is no URL", () => {
    expect(normalizeUrl("/just/a/path")).toBeNull();
  });

  test("idempotent and ASCII on generated URLs (seeded)", () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const alphabet = [..."abcXYZ019-._~%/?#&=;:@!$'()*+,[]{}|^` \"<>\\\u00e9\u30c4\ud83d\ude00\t"];
    const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)] as T;
    const text = (n: number) => Array.from({ length: rand(n) }, () => pick(alphabet)).join("");
    let checked = 0;
    for (let i = 0; i < 2000; i++) {
      const url = `${pick(["http", "https", "HTTP", "ftp"])}://${pick([
        "example.com",
        "EXAMPLE.com.",
        "b\u00fccher.de",
        "1.2.3.4",
        "[::1]",
        "a_b.example",
      ])}${pick(["", ":80", ":443", ":8080", ":0"])}/${text(30)}`;
      const once = normalizeUrl(url);
      if (once === null) continue;
      checked++;
      expect(normalizeUrl(once)).toBe(once);
      expect(once).toMatch(/^https?:\/\/[\x21-\x7e]+$/);
      expect(once).not.toContain("#");
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

test("pageId is pg_ and 16 hex chars of the normalized URL's SHA-256", () => {
  const pid = pageId("https://example.com/");
  expect(pid).toMatch(/^pg_[0-9a-f]{16}$/);
  expect(pid).toBe(pageId("https://example.com/"));
  expect(pid).not.toBe(pageId("http://example.com/"));
  expect(pageId(normalizeUrl("HTTPS://EXAMPLE.com:443/#x") ?? "")).toBe(pid);
  // the reference's value (Python: hashlib.sha256(b"https://example.com/").hexdigest()[:16])
  expect(pid).toBe("pg_0f115db062b7c0dd");
});

describe("inScope", () => {
  const cases: [string, string, boolean][] = [
    ["https://python.org/", "python.org", true],
    ["https://docs.python.org/3/", "python.org", true],
    ["https://a.b.python.org/", "python.org", true],
    ["https://PYTHON.ORG./x", "python.org", true],
    ["https://notpython.org/", "python.org", false],
    ["https://python.org.evil.com/", "python.org", false],
    ["https://evil.com/?u=python.org", "python.org", false],
    ["https://user@evil.com/python.org", "python.org", false],
    ["mailto:x@python.org", "python.org", false],
    ["https://python.org:8443/", "python.org", true],
  ];
  test.each(cases)("%p in %p: %p", (url, root, expected) => {
    expect(inScope(url, root)).toBe(expected);
  });
});

test("urlHost and originOf", () => {
  expect(urlHost("https://Docs.Python.org./x")).toBe("docs.python.org");
  expect(urlHost("nope")).toBeNull();
  expect(originOf("https://example.com:8443/a/b?c")).toBe("https://example.com:8443");
});

describe("looksLikeNonHtml", () => {
  const cases: [string, boolean][] = [
    ["https://x.com/file.pdf", false], // a PDF is a page (src/extract/pdf/)
    ["https://x.com/file.docx", true],
    ["https://x.com/IMG.JPG", true],
    ["https://x.com/a.tar.gz", true],
    ["https://x.com/app.js?v=1", true],
    ["https://x.com/page.html", false],
    ["https://x.com/page.php?id=1", false],
    ["https://x.com/docs/", false],
    ["https://x.com/v1.2/intro", false],
    ["https://x.com/download.pdf/", false],
  ];
  test.each(cases)("%p: %p", (url, expected) => {
    expect(looksLikeNonHtml(url)).toBe(expected);
  });
});

describe("TrapGuard", () => {
  test("limits come from the config", () => {
    const guard = new TrapGuard(
      trapLimits(testConfig({ MAX_DEPTH: "2", MAX_QUERY_VARIANTS_PER_PATH: "7" })),
    );
    expect(guard.limits.maxDepth).toBe(2);
    expect(guard.limits.maxQueryVariantsPerPath).toBe(7);
  });

  test("depth and length", () => {
    const guard = new TrapGuard({ maxDepth: 3, maxUrlLength: 40 });
    expect(guard.check("https://x.com/a", 3)).toBeNull();
    expect(guard.check("https://x.com/a", 4)).toContain("depth");
    expect(guard.check(`https://x.com/${"a".repeat(40)}`, 0)).toContain("length");
  });

  const repeated: [string, boolean][] = [
    ["/a/a/a", false],
    ["/a/a/a/a", true],
    ["/a/b/a/b/a/b", false],
    ["/a/b/a/b/a/b/a/b", true],
    ["/x/a/b/c/a/b/c/a/b/c/a/b/c/y", true],
    ["/2024/01/01/01/post", false],
    ["/docs/3/library/os.html", false],
    ["/a/b/c/d/e/f/g/h/i/j", false],
    ["/a/x/a/y/a/z/a", true],
  ];
  test.each(repeated)("repeated segments %p trapped: %p", (path, trapped) => {
    const reason = new TrapGuard({ maxRepeatedSegments: 3 }).check(`https://x.com${path}`, 1);
    expect(reason !== null).toBe(trapped);
    if (trapped) expect(reason).toContain("repeat");
  });

  test("query parameters", () => {
    const guard = new TrapGuard({ maxQueryParams: 3 });
    expect(guard.check("https://x.com/s?a=1&b=2&c=3", 1)).toBeNull();
    expect(guard.check("https://x.com/s?a=1&b=2&c=3&d=4", 1)).toContain("query parameters");
  });

  test("calendar: query variants per path", () => {
    const guard = new TrapGuard({ maxQueryVariantsPerPath: 5 });
    const results = Array.from({ length: 9 }, (_, i) =>
      guard.check(`https://x.com/calendar?month=${i + 1}`, 1),
    );
    expect(results.slice(0, 5)).toEqual([null, null, null, null, null]);
    for (const r of results.slice(5)) expect(r).toContain("query variants");
    // a variant already accepted stays accepted; other paths have their own budget
    expect(guard.check("https://x.com/calendar?month=1", 1)).toBeNull();
    expect(guard.check("https://x.com/other?month=9", 1)).toBeNull();
    expect(guard.check("https://x.com/calendar", 1)).toBeNull();
  });

  test("the oldest tracked path is forgotten past maxTrackedPaths", () => {
    const guard = new TrapGuard({ maxQueryVariantsPerPath: 1, maxTrackedPaths: 2 });
    expect(guard.check("https://x.com/a?1", 0)).toBeNull();
    expect(guard.check("https://x.com/a?2", 0)).toContain("more than 1 query variant of");
    guard.check("https://x.com/b?1", 0);
    guard.check("https://x.com/c?1", 0);
    expect(guard.check("https://x.com/a?2", 0)).toBeNull();
  });
});

describe("screenUrl", () => {
  const opts = { rootDomain: "example.com", depth: 1, base: "https://www.example.com/dir/" };
  test("a link in scope passes, normalized", () => {
    expect(screenUrl("page?utm_source=x#f", new TrapGuard(), opts)).toEqual({
      ok: true,
      url: "https://www.example.com/dir/page",
    });
  });
  test("unusable and out-of-scope links are not the crawl's business", () => {
    expect(screenUrl("mailto:a@example.com", new TrapGuard(), opts)).toMatchObject({
      ok: false,
      bucket: null,
    });
    expect(screenUrl("https://other.org/", new TrapGuard(), opts)).toEqual({
      ok: false,
      bucket: null,
      reason: "outside example.com",
    });
  });
  test("non-page resources and traps are filtered with a reason", () => {
    expect(screenUrl("/files/report.DOCX", new TrapGuard(), opts)).toEqual({
      ok: false,
      bucket: "filtered",
      reason: "not a page: .docx resource",
    });
    // A PDF is a page (src/extract/pdf/).
    expect(screenUrl("/files/report.PDF", new TrapGuard(), opts)).toMatchObject({ ok: true });
    expect(screenUrl("/a/a/a/a/", new TrapGuard(), opts)).toMatchObject({
      ok: false,
      bucket: "filtered",
    });
    expect(
      screenUrl("/files/report.pdf", new TrapGuard(), { ...opts, skipNonPages: false }),
    ).toMatchObject({ ok: true });
  });
});
