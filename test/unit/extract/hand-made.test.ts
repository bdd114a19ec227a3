/** Extraction of small hand-written pages: metadata, links, markdown rules, robustness. */
import { describe, expect, test } from "bun:test";
import type { ExtractedDocument } from "../../../src/extract/document.ts";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { parseHtml } from "../../../src/extract/parse.ts";
import { countWords } from "../../../src/extract/words.ts";
import { countWhitespaceSplit, splitWhitespace } from "../../../src/facets/unicode-regex.ts";

const PAGE = `<!doctype html><html lang="de-DE"><head>
<meta charset="utf-8"><title>Hallo Welt</title>
<link rel="canonical" href="/de/artikel">
<link rel="alternate" hreflang="en" href="https://example.com/en/article">
<link rel="alternate" hreflang="x-default" href="/article">
<meta name="description" content="Eine Beschreibung.">
<meta name="robots" content="noindex, follow">
<meta property="og:type" content="article">
<meta property="article:published_time" content="2023-04-05T10:00:00Z">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"NewsArticle","headline":"x"},{"@type":["BreadcrumbList","Thing"]}]}</script>
</head><body>
<header><nav><a href="/">Start</a> <a href="/produkte#top">Produkte</a></nav></header>
<div class="sidebar"><a href="/seitenleiste">Seitenleiste</a></div>
<main><article><h1>Hallo Welt</h1>
<p>Ein Absatz mit einem <a href="/ziel" rel="nofollow">Inhaltslink</a> und <em>Betonung</em>.</p>
<p>Noch ein längerer Absatz, damit der Inhalt nach Inhalt aussieht und nicht nach Navigation.</p>
<img src="/bild.png" alt="Ein Bild">
<pre><code class="language-js">const x = 1;
console.log(x);</code></pre>
<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>
<ul><li>eins</li><li>zwei<ul><li>zwei.eins</li></ul></li></ul>
</article></main>
<footer><a href="mailto:x@example.com">Mail</a> <a href="https://example.com/impressum">Impressum</a></footer>
</body></html>`;

const extract = (html: string | Uint8Array, url = "https://example.com/", contentType?: string) =>
  extractDocument(html, url, contentType ? { contentType } : {});

describe("a hand-made article page", () => {
  const doc = extract(new TextEncoder().encode(PAGE), "https://example.com/de/artikel?x=1");

  test("metadata", () => {
    expect(doc.title).toBe("Hallo Welt");
    expect(doc.language).toBe("de-DE");
    expect(doc.canonicalUrl).toBe("https://example.com/de/artikel");
    expect(doc.hreflang).toEqual([
      ["en", "https://example.com/en/article"],
      ["x-default", "https://example.com/article"],
    ]);
    expect(doc.description).toBe("Eine Beschreibung.");
    expect(doc.noindex).toBe(true);
    expect(doc.nofollow).toBe(false);
    expect(doc.ogType).toBe("article");
    expect(doc.jsonldTypes).toEqual(["NewsArticle", "BreadcrumbList", "Thing"]);
    expect(doc.published).toBe("2023-04-05");
  });

  test("links: absolute, fragment-free, positioned, nofollow", () => {
    const links = new Map(doc.links.map((l) => [l.url, l]));
    expect(links.has("mailto:x@example.com")).toBe(false);
    expect(links.get("https://example.com/produkte")?.position).toBe("template");
    expect(links.get("https://example.com/seitenleiste")?.position).toBe("template");
    expect(links.get("https://example.com/impressum")?.position).toBe("template");
    const ziel = links.get("https://example.com/ziel");
    expect(ziel?.position).toBe("body");
    expect(ziel?.nofollow).toBe(true);
    expect(ziel?.anchorText).toBe("Inhaltslink");
  });

  test("markdown: code with language, GFM table, nested list, link, no chrome", () => {
    expect(doc.markdown).toContain("```javascript\nconst x = 1;\nconsole.log(x);\n```");
    expect(doc.markdown).toContain("| A | B |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |");
    expect(doc.markdown).toContain("- zwei\n  - zwei.eins");
    expect(doc.markdown).toContain("[Inhaltslink](https://example.com/ziel)");
    expect(doc.markdown).toContain("*Betonung*");
    expect(doc.markdown).not.toContain("Start");
    expect(doc.markdown).not.toContain("Impressum");
  });

  test("assets, code, words, plain text", () => {
    expect(doc.assets).toEqual([
      { url: "https://example.com/bild.png", kind: "image", alt: "Ein Bild" },
    ]);
    expect(doc.hasCode).toBe(true);
    expect(doc.words).toBe(countWords(doc.text));
    expect(doc.text).not.toContain("](");
    expect(doc.text).not.toContain("```");
  });
});

describe("markdown rules", () => {
  const body = (inner: string) =>
    extract(
      `<html><head><meta name="generator" content="Sphinx 7"></head><body><div class="body"><h1>T</h1>${inner}</div></body></html>`,
    );

  test("a bare <pre> (Sphinx, DocBook) is a fenced code block, not escaped text", () => {
    const doc = body(
      '<p>Some text that is long enough to count as the content of this documentation page here.</p><div class="highlight-python3 notranslate"><div class="highlight"><pre><span class="k">def</span> __init__(self, *args, **kw):\n    return [x_1] # *not* emphasis</pre></div></div>',
    );
    expect(doc.markdown).toContain(
      "```python\ndef __init__(self, *args, **kw):\n    return [x_1] # *not* emphasis\n```",
    );
  });

  test("prose is escaped only where markdown would misread it", () => {
    const doc = body(
      "<p><acronym>SQL</acronym>-compliant snake_case and 2*3 [note]</p><p>- not a list</p><p>1. not a list either</p><p>a <b>b</b>+ c</p>",
    );
    expect(doc.markdown).toContain("SQL-compliant");
    expect(doc.markdown).toContain("a **b**+ c");
    expect(doc.markdown).toContain("snake\\_case");
    expect(doc.markdown).toContain("\\[note\\]");
    expect(doc.markdown).toContain("\\- not a list");
    expect(doc.markdown).toContain("1\\. not a list either");
    expect(doc.text).toContain("snake_case and 2*3 [note]");
  });

  test("code fence grows past backticks inside the code", () => {
    const doc = body(
      "<p>Text long enough to be taken as the documentation content of this page.</p><pre>```\nnested\n```</pre>",
    );
    expect(doc.markdown).toContain("````\n```\nnested\n```\n````");
  });

  test("tables: colspan padded, pipes escaped, blank cells kept, layout tables unrolled", () => {
    const doc = body(
      '<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td colspan="2">wide</td><td>x|y</td></tr><tr><td></td><td>2</td><td>3</td></tr></table>' +
        "<table><tr><td><table><tr><td>inner</td><td>cell</td></tr></table></td></tr></table>",
    );
    expect(doc.markdown).toContain(
      "| a | b | c |\n|---|---|---|\n| wide |  | x\\|y |\n|  | 2 | 3 |",
    );
    expect(doc.markdown).toContain("| inner | cell |");
  });

  test("ordered lists keep their start, definition lists their terms", () => {
    const doc = body(
      '<ol start="3"><li>three</li><li>four</li></ol><dl><dt>term</dt><dd>meaning</dd></dl>',
    );
    expect(doc.markdown).toContain("3. three\n4. four");
    expect(doc.markdown).toContain("**term**\n\nmeaning");
  });
});

describe("headers and charsets", () => {
  const latinBody = "<p>Grüße aus Köln, schöne Straße. ".repeat(20);
  const latin1 = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

  test("X-Robots-Tag", () => {
    const html = "<html><head><title>t</title></head><body><p>hello world</p></body></html>";
    const doc = extractDocument(html, "https://example.com/", {
      headers: { "X-Robots-Tag": "noindex, nofollow" },
    });
    expect(doc.noindex && doc.nofollow).toBe(true);
    expect(extract(html).noindex).toBe(false);
  });

  test("charset from the header, the meta tag, detection; the header wins", () => {
    const page = `<html><head><title>Grüße</title></head><body>${latinBody}</body></html>`;
    expect(extract(latin1(page), undefined, "text/html; charset=ISO-8859-1").title).toBe("Grüße");
    const meta = `<html><head><meta charset="windows-1252"><title>Grüße</title></head><body>${latinBody}</body></html>`;
    expect(extract(latin1(meta)).title).toBe("Grüße");
    const wrong = `<html><head><meta charset="iso-8859-1"><title>Grüße</title></head><body>${latinBody}</body></html>`;
    expect(
      extract(new TextEncoder().encode(wrong), undefined, "text/html;charset=utf-8").title,
    ).toBe("Grüße");
    expect(extract(latin1(page)).title).toBe("Grüße");
    expect(extract(new TextEncoder().encode(page)).title).toBe("Grüße");
  });
});

describe("robustness", () => {
  const garbage: [string, Uint8Array | string][] = [
    ["empty", new Uint8Array()],
    ["binary", Uint8Array.from([0, 1, 2, 0xff, 0xfe, 32, 103])],
    ["brackets", "<<<>>>"],
    ["xml declaration", "<?xml version='1.0' encoding='utf-8'?><html><body><p>x</p></body></html>"],
    ["utf-16 bom", Uint8Array.from([0xff, 0xfe, 0x3c, 0, 0x68, 0])],
    ["deep nesting", `${"<div>".repeat(5000)}deep${"</div>".repeat(5000)}`],
    [
      "huge colspan",
      "<html><body><table><tr><td colspan='999999'>x</td></tr></table></body></html>",
    ],
    [
      "bogus charset",
      '<html><head><meta charset="bogus-charset"></head><body>\u00e9\u00e8</body></html>',
    ],
    ["all bytes", Uint8Array.from({ length: 25600 }, (_, i) => i % 256)],
  ];
  for (const [name, input] of garbage) {
    test(`${name} does not throw`, () => {
      const doc: ExtractedDocument = extract(input);
      expect(typeof doc.markdown).toBe("string");
      expect(Array.isArray(doc.links)).toBe(true);
    });
  }

  test("deep nesting keeps its text", () => {
    expect(
      extract(
        `<html><body>${"<div>".repeat(5000)}deep words here${"</div>".repeat(5000)}</body></html>`,
      ).text,
    ).toContain("deep words here");
  });

  test("huge input is cut at 4 MiB, not refused", () => {
    const paragraph = `<p>${"lorem ipsum dolor sit amet ".repeat(40)}</p>`;
    const html = `<html><body>${paragraph.repeat(5_000)}<p>the end</p></body></html>`;
    expect(html.length).toBeGreaterThan(5_000_000);
    const doc = extract(new TextEncoder().encode(html));
    expect(doc.words).toBeGreaterThan(500_000);
    expect(doc.text).not.toContain("the end");
  }, 30_000);

  test("past the cut, inline scripts and styles are emptied first: the text after them stays", () => {
    const state = `<script>window.__STATE__ = ${JSON.stringify({ blob: "x".repeat(5_000_000) })};</script>`;
    const html = `<html><head><script type="application/ld+json">{"@type":"CollectionPage"}</script><style>p{color:red}</style></head><body><h1>Sneakers</h1>${state}<section><p>What in the world is an everyday shoe? One you are content wearing every day.</p></section></body></html>`;
    const doc = extract(new TextEncoder().encode(html));
    expect(doc.text).toContain("What in the world is an everyday shoe");
    expect(doc.text).not.toContain("xxxx");
    expect(doc.jsonldTypes).toContain("CollectionPage");
  }, 30_000);
});

describe("dates", () => {
  test("a <time datetime> in the page", () => {
    const html = `<html><head><title>Release notes</title></head><body>
      <nav><a href="/">Home</a></nav>
      <article><h1>We shipped version 2</h1>
      <p class="byline">Published on <time datetime="2021-09-14">September 14, 2021</time></p>
      <p>Version two brings a faster indexer, a new query language and many fixes that our
      users asked for over the last year. Here is what changed and why it matters.</p>
      <p>The indexer is now three times faster on large sites, thanks to a rewritten parser.</p>
      </article></body></html>`;
    const doc = extract(html, "https://example.com/blog/v2");
    expect(doc.published).toBe("2021-09-14");
    expect(doc.text).toContain("three times faster");
  });

  test("no date is null, never today", () => {
    const html = `<html><body><article><p>${"Timeless content without a date. ".repeat(30)}</p></article></body></html>`;
    expect(extract(html, "https://example.com/about").published).toBeNull();
  });

  test("a date in the URL; impossible and future dates are refused", () => {
    const html = `<html><body><article><p>${"Words of a post. ".repeat(30)}</p></article></body></html>`;
    expect(extract(html, "https://example.com/2019/11/05/post").published).toBe("2019-11-05");
    expect(extract(html, "https://example.com/2019/02/30/post").published).toBeNull();
    const future = html.replace("<article>", '<article><time datetime="2999-01-01">x</time>');
    expect(extract(future, "https://example.com/p").published).toBeNull();
  });
});

describe("words", () => {
  test("counts \\w+ runs as Python does (letters, numbers, underscore; not marks)", () => {
    expect(countWords("Plain words, and_snake 42.")).toBe(4);
    expect(countWords("日本語のテキスト and English")).toBe(3);
    expect(countWords("")).toBe(0);
    expect(countWords("e\u0301te")).toBe(2); // a combining mark splits a word, as in Python
  });
});

describe("counting without building the pieces", () => {
  const samples = [
    "",
    "   ",
    "one",
    " lead and trail ",
    "tabs\tand\nlines\r\nand\u000bvt\u000cff",
    "nbsp\u00a0ideographic\u3000space\u2028line\u2029para\ufeffbom",
    "日本語のテキスト and English, e\u0301te, snake_case 42",
    "emoji 😀 in😀side \ud800 lone \udc00 surrogates",
    "a\u200bzero-width\u180emongolian",
  ];

  test("countWords equals the count of \\w+ matches (Python's rule) on every sample", () => {
    for (const s of samples) expect(countWords(s)).toBe(s.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0);
  });

  test("countWhitespaceSplit equals splitWhitespace(text).length on every sample", () => {
    for (const s of samples) expect(countWhitespaceSplit(s)).toBe(splitWhitespace(s).length);
  });
});

describe("<base>", () => {
  const page = (head: string) =>
    new TextEncoder().encode(
      `<html><head><title>t</title>${head}</head><body><p>${"Some words here. ".repeat(20)}</p></body></html>`,
    );

  test("the first <base> resolves the canonical URL, wherever it is in the head", () => {
    const before = extractDocument(
      page('<base href="https://cdn.example.com/docs/"><link rel="canonical" href="page.html">'),
      "https://example.com/a/b",
    );
    const after = extractDocument(
      page('<link rel="canonical" href="page.html"><base href="https://cdn.example.com/docs/">'),
      "https://example.com/a/b",
    );
    expect(before.canonicalUrl).toBe("https://cdn.example.com/docs/page.html");
    expect(after.canonicalUrl).toBe("https://cdn.example.com/docs/page.html");
  });

  test("without <base>, the page's own URL", () => {
    const doc = extractDocument(
      page('<link rel="canonical" href="page.html">'),
      "https://example.com/a/b",
    );
    expect(doc.canonicalUrl).toBe("https://example.com/a/page.html");
  });
});

describe("linkedom's element classes (patched)", () => {
  const doc = parseHtml(
    '<html><body><div id="d"></div><section id="s"></section><p id="p"></p><a id="a" href="/x">x</a><img id="i" src="/i.png"><template id="t"><b>in</b></template></body></html>',
  );
  const byId = (id: string) =>
    (
      doc as unknown as { getElementById(id: string): Record<string, unknown> | null } | null
    )?.getElementById(id) ?? null;

  test("elements without behaviour of their own share one class", () => {
    const classes = new Set(["d", "s", "p"].map((id) => byId(id)?.constructor));
    expect(classes.size).toBe(1);
  });

  test("anchors, images and templates keep theirs", () => {
    expect(byId("a")?.href).toBe("/x");
    expect(byId("i")?.src).toBe("/i.png");
    const content = byId("t")?.content as { firstChild?: { nodeName?: string } } | undefined;
    expect(content?.firstChild?.nodeName).toBe("B");
    expect(byId("a")?.constructor).not.toBe(byId("d")?.constructor);
  });
});

describe("upper-case HTML", () => {
  test("attribute names are case-insensitive: links, canonical and description are read", () => {
    const html = `<HTML><HEAD><TITLE>T</TITLE><LINK REL="canonical" HREF="/canon"><META NAME="description" CONTENT="About us"></HEAD><BODY><P>${"Words here. ".repeat(30)}<A HREF="/other">other</A></P><svg viewBox="0 0 1 1"></svg></BODY></HTML>`;
    const doc = extractDocument(new TextEncoder().encode(html), "https://example.com/a");
    expect(doc.canonicalUrl).toBe("https://example.com/canon");
    expect(doc.description).toBe("About us");
    expect(doc.links.map((l) => l.url)).toContain("https://example.com/other");
  });

  test("SVG keeps its attributes' case", () => {
    const doc = parseHtml('<html><body><svg viewBox="0 0 1 1"><path d="M0"/></svg></body></html>');
    const svg = (
      doc as unknown as { querySelector(s: string): { getAttribute(n: string): string | null } }
    ).querySelector("svg");
    expect(svg.getAttribute("viewBox")).toBe("0 0 1 1");
  });
});

test("a page with markup between </head> and <body> has one body holding all of it, in order, with the written body's attributes", () => {
  const doc = parseHtml(
    '<html><head><title>x</title></head><header><a href="/">Home</a></header><div><p>Intro</p></div><body class="single-product"><p>Main</p></body></html>',
  );
  const body = doc?.body;
  expect(body?.getElementsByTagName("header").length).toBe(1);
  expect(body?.textContent).toBe("HomeIntroMain");
  expect(body?.getAttribute("class")).toBe("single-product");
  expect(doc?.getElementsByTagName("body").length).toBe(1);
});

test("a shop's category page written with its header before <body> keeps every card (the page without its chrome is the written body's)", () => {
  const cards = [
    "Linen shirt",
    "Wool coat",
    "Cotton scarf",
    "Silk tie",
    "Denim jacket",
    "Leather belt",
  ]
    .map((name, i) => `<li class="card"><h3>${name}</h3><p>${20 + i} EUR</p></li>`)
    .join("");
  const html = `<!doctype html><html><head><title>Clothing</title></head><header><nav><a href="/">Home</a><a href="/shop">Shop</a></nav></header><body class="archive"><main><h1>Clothing</h1><ul>${cards}</ul></main><footer><a href="/privacy">Privacy</a></footer></body></html>`;
  const doc = extractDocument(html, "https://shop.example.com/c/clothing");
  for (const name of ["Linen shirt", "Denim jacket", "Leather belt", "25 EUR"])
    expect(doc.text).toContain(name);
  expect(doc.text).not.toContain("Privacy");
});
