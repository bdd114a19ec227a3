import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  defaultSitemapUrls,
  gunzipCapped,
  parseLastmod,
  parseSitemap,
} from "../../../src/crawl/sitemaps.ts";

const SM = "https://example.com/sitemap.xml";
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const enc = (s: string) => new TextEncoder().encode(s);
const urlset = (entries: string[], ns = NS) =>
  enc(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${ns}>${entries.join("")}</urlset>`);
const locs = (body: Uint8Array, url = SM) => parseSitemap(body, url).urls.map((e) => e.loc);

test("urlset with a namespace, lastmod as a date, priority where stated", () => {
  const res = parseSitemap(
    urlset([
      "<url><loc>https://example.com/</loc><lastmod>2024-05-06</lastmod></url>",
      "<url><loc>\n  https://example.com/docs/intro  \n</loc><lastmod>2023-01-02T10:20:30+02:00</lastmod><priority>0.5</priority></url>",
      "<url><loc>https://example.com/no-date</loc></url>",
    ]),
    SM,
  );
  expect(res.error).toBeNull();
  expect(res.kind).toBe("urlset");
  expect(res.urls).toEqual([
    { loc: "https://example.com/", lastmod: "2024-05-06" },
    { loc: "https://example.com/docs/intro", lastmod: "2023-01-02", priority: 0.5 },
    { loc: "https://example.com/no-date", lastmod: null },
  ]);
  expect(res.children).toEqual([]);
});

test("sitemap priority: 0..1 kept, anything else dropped", () => {
  const res = parseSitemap(
    urlset([
      "<url><loc>https://example.com/a</loc><priority> 1.0 </priority></url>",
      "<url><loc>https://example.com/b</loc><priority>1.5</priority></url>",
      "<url><loc>https://example.com/c</loc><priority>high</priority></url>",
    ]),
    SM,
  );
  expect(res.urls.map((e) => e.priority)).toEqual([1, undefined, undefined]);
});

test("urlset without a namespace, and with a prefixed one", () => {
  expect(locs(urlset(["<url><loc>https://example.com/a</loc></url>"], ""))).toEqual([
    "https://example.com/a",
  ]);
  const prefixed = enc(
    '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://example.com/b</sm:loc></sm:url></sm:urlset>',
  );
  expect(locs(prefixed)).toEqual(["https://example.com/b"]);
});

test("entities in locations are decoded", () => {
  expect(locs(urlset(["<url><loc>https://example.com/p?a=1&amp;b=2</loc></url>"]))).toEqual([
    "https://example.com/p?a=1&b=2",
  ]);
});

test("extension namespaces are ignored", () => {
  const body = enc(
    `<urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">` +
      '<url><loc>https://example.com/p</loc><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/p"/>' +
      "<image:image><image:loc>https://example.com/i.png</image:loc></image:image></url></urlset>",
  );
  expect(locs(body)).toEqual(["https://example.com/p"]);
});

test("sitemap index: children resolved and deduplicated", () => {
  const res = parseSitemap(
    enc(
      `<sitemapindex ${NS}><sitemap><loc>https://example.com/sm-1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>` +
        "<sitemap><loc>/sm-2.xml</loc></sitemap><sitemap><loc>https://example.com/sm-1.xml.gz</loc></sitemap></sitemapindex>",
    ),
    SM,
  );
  expect(res.kind).toBe("index");
  expect(res.error).toBeNull();
  expect(res.children).toEqual(["https://example.com/sm-1.xml.gz", "https://example.com/sm-2.xml"]);
  expect(res.urls).toEqual([]);
});

test("gzip is detected by its magic bytes", () => {
  const body = Bun.gzipSync(urlset(["<url><loc>https://example.com/gz</loc></url>"]));
  expect(locs(body, "https://example.com/sitemap.xml.gz")).toEqual(["https://example.com/gz"]);
});

test("a gzip bomb is refused", () => {
  const bomb = Bun.gzipSync(new Uint8Array(2 * 1024 * 1024).fill(0x20));
  const res = parseSitemap(bomb, SM, { maxDecompressedBytes: 1024 * 1024 });
  expect(res.error).toContain("larger than");
  expect(res.urls).toEqual([]);
  expect(() => gunzipCapped(bomb, 1024)).toThrow("larger than");
});

test("an oversized plain body is refused", () => {
  const res = parseSitemap(enc("https://example.com/\n".repeat(100)), SM, {
    maxDecompressedBytes: 1000,
  });
  expect(res.error).toContain("larger than");
});

test("corrupt gzip", () => {
  expect(parseSitemap(Uint8Array.of(0x1f, 0x8b, 8, 0, 0x67, 0x61, 0x72), SM).error).toContain(
    "gzip",
  );
});

test("plain text sitemap", () => {
  const body = Uint8Array.from([
    0xef,
    0xbb,
    0xbf,
    ...enc(
      "https://example.com/a\r\n  https://example.com/b  \n\n# comment\nnot a url\nftp://example.com/c\nhttps://example.com/a\n",
    ),
  ]);
  const res = parseSitemap(body, "https://example.com/sitemap.txt");
  expect(res.kind).toBe("text");
  expect(res.error).toBeNull();
  expect(res.urls.map((e) => e.loc)).toEqual(["https://example.com/a", "https://example.com/b"]);
});

test("plain text without URLs is an error", () => {
  expect(parseSitemap(enc("hello\nworld\n"), SM).error).toContain("no URLs");
});

test("RSS and Atom feeds", () => {
  const rss = enc(
    '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://example.com/</link>' +
      "<item><link>https://example.com/post-1</link><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>" +
      "<item><link>https://example.com/post-2</link></item></channel></rss>",
  );
  const r = parseSitemap(rss, "https://example.com/feed.xml");
  expect(r.kind).toBe("rss");
  expect(r.urls).toEqual([
    { loc: "https://example.com/post-1", lastmod: "2003-06-10" },
    { loc: "https://example.com/post-2", lastmod: null },
  ]);
  const atom = enc(
    '<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><link href="https://example.com/"/>' +
      '<entry><link rel="self" href="https://example.com/self"/><link href="https://example.com/e1"/><updated>2005-07-31T12:29:29Z</updated></entry>' +
      '<entry><link rel="alternate" href="/e2"/></entry></feed>',
  );
  const a = parseSitemap(atom, "https://example.com/atom.xml");
  expect(a.kind).toBe("atom");
  expect(a.urls).toEqual([
    { loc: "https://example.com/e1", lastmod: "2005-07-31" },
    { loc: "https://example.com/e2", lastmod: null },
  ]);
});

test("a truncated file keeps what it had and says it was damaged", () => {
  const full = urlset([
    "<url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url>",
  ]);
  const res = parseSitemap(full.subarray(0, full.byteLength - 30), SM);
  expect(res.urls.map((e) => e.loc).slice(0, 1)).toEqual(["https://example.com/1"]);
  expect(res.error).toContain("malformed XML");
});

test("garbage reports an error", () => {
  const res = parseSitemap(Uint8Array.from([...enc("<<<>>>"), 0, 1]), SM);
  expect(res.error).not.toBeNull();
  expect(res.urls).toEqual([]);
});

test("HTML is not a sitemap", () => {
  expect(parseSitemap(enc("<html><body><a href='/x'>x</a></body></html>"), SM).error).toContain(
    "not a sitemap",
  );
});

test("empty body", () => {
  expect(parseSitemap(enc(""), SM).error).toBe("empty sitemap");
  expect(parseSitemap(enc("  \n "), SM).error).toBe("empty sitemap");
});

test("XXE: an external entity is never resolved", () => {
  const dir = mkdtempSync(join(tmpdir(), "xxe-"));
  const secret = join(dir, "secret.txt");
  writeFileSync(secret, "TOPSECRET");
  const body = enc(
    `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file://${secret}">]><urlset ${NS}><url><loc>https://example.com/&xxe;</loc></url></urlset>`,
  );
  const res = parseSitemap(body, SM);
  for (const e of res.urls) expect(e.loc).not.toContain("TOPSECRET");
  expect(res.error).toContain("entity declarations ignored");
});

test("billion laughs: nothing expanded, the damage reported", () => {
  const entities =
    '<!ENTITY lol0 "lol">' +
    Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join(
      "",
    );
  const body = enc(
    `<?xml version="1.0"?><!DOCTYPE urlset [${entities}]><urlset ${NS}><url><loc>https://example.com/&lol9;</loc></url><url><loc>https://example.com/ok</loc></url></urlset>`,
  );
  const res = parseSitemap(body, SM);
  for (const e of res.urls) expect(e.loc.length).toBeLessThan(100);
  expect(res.error).toContain("malformed XML");
});

test("maxUrls truncates", () => {
  const body = urlset(
    Array.from({ length: 100 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`),
  );
  const res = parseSitemap(body, SM, { maxUrls: 10 });
  expect(res.urls).toHaveLength(10);
  expect(res.truncated).toBe(true);
  expect(res.error).toBeNull();
  const full = parseSitemap(body, SM);
  expect(full.urls).toHaveLength(100);
  expect(full.truncated).toBe(false);
});

test("non-http locations dropped, foreign hosts kept (scope is the caller's)", () => {
  const body = urlset([
    "<url><loc>javascript:alert(1)</loc></url>",
    "<url><loc>mailto:a@example.com</loc></url>",
    "<url><loc>https://other.example.org/x</loc></url>",
    "<url><loc></loc></url>",
    "<url><lastmod>2024-01-01</lastmod></url>",
  ]);
  expect(locs(body)).toEqual(["https://other.example.org/x"]);
});

describe("parseLastmod", () => {
  test.each([
    ["2024", "2024-01-01"],
    ["2024-05", "2024-05-01"],
    ["2024-05-06", "2024-05-06"],
    ["2024-05-06T10:00Z", "2024-05-06"],
    ["2024-05-06T23:59:59.123-08:00", "2024-05-06"],
    ["Tue, 10 Jun 2003 04:00:00 GMT", "2003-06-10"],
    ["2024-13-45", null],
    ["2023-02-29", null],
    ["yesterday", null],
    ["", null],
    [null, null],
  ])("%p -> %p", (value, expected) => {
    expect(parseLastmod(value)).toBe(expected);
  });
});

test("defaultSitemapUrls", () => {
  const expected = ["https://example.com/sitemap.xml", "https://example.com/sitemap_index.xml"];
  expect(defaultSitemapUrls("https://example.com")).toEqual(expected);
  expect(defaultSitemapUrls("https://Example.com/")).toEqual(expected);
  expect(defaultSitemapUrls("https://example.com/some/page?x=1")).toEqual(expected);
  expect(defaultSitemapUrls("http://127.0.0.1:8080")[0]).toBe("http://127.0.0.1:8080/sitemap.xml");
});

test("never throws on random bytes or XML-ish text (seeded)", () => {
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const pieces = [
    "<",
    ">",
    "/",
    "url",
    "loc",
    "urlset",
    "&amp;",
    "&",
    ";",
    "http://",
    "https://x/",
    "\u0000",
    "<!DOCTYPE",
    "]]>",
    "é",
    " ",
  ];
  for (let i = 0; i < 500; i++) {
    const bytes = Uint8Array.from({ length: rand(300) }, () => rand(256));
    for (const e of parseSitemap(bytes, SM).urls) expect(e.loc).toMatch(/^https?:\/\//);
    const text = Array.from({ length: rand(40) }, () => pieces[rand(pieces.length)]).join("");
    for (const e of parseSitemap(enc(`<urlset><url><loc>${text}</loc></url></urlset>`), SM).urls) {
      expect(e.loc).toMatch(/^https?:\/\//);
    }
  }
});
