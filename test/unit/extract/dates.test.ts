/** Published dates: htmldate's fast heuristics as the reference runs them, ported (page-date.ts,
 * meta-date.ts, date-expressions.ts). Each expected date is what htmldate 1.11 (the reference's
 * virtualenv) answers for the same page with original_date=True, extensive_search=False. */
import { describe, expect, test } from "bun:test";
import { dateExpression, dateRange } from "../../../src/extract/date-expressions.ts";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { pageDate } from "../../../src/extract/page-date.ts";
import { parseHtml } from "../../../src/extract/parse.ts";

const TODAY = new Date("2026-06-01T12:00:00Z");

const PAGES: [string, string, string, string | null][] = [
  [
    "url",
    "https://news.test/2019/11/20/story.html",
    '<html><head><meta name="date" content="2018-01-01"></head><body><p>x</p></body></html>',
    "2019-11-20",
  ],
  [
    "meta-name-text",
    "https://x.test/a",
    '<html><head><meta name="pubdate" content="November 20, 2019 12:32"></head><body><p>Hello world</p></body></html>',
    "2019-11-20",
  ],
  [
    "meta-property-text",
    "https://x.test/a",
    '<html><head><meta property="article:published_time" content="November 19, 2019, 07:47 PM EST"></head><body><p>Hello</p></body></html>',
    "2019-11-19",
  ],
  [
    "modified-reserve",
    "https://x.test/a",
    '<html><head><meta property="article:modified_time" content="2019-03-04T10:00:00Z"></head><body><p>Hello</p></body></html>',
    "2019-03-04",
  ],
  [
    "copyright-reserve",
    "https://x.test/a",
    '<html><head><meta itemprop="copyrightYear" content="2017"></head><body><p>Hello</p></body></html>',
    "2017-01-01",
  ],
  [
    "jsonld",
    "https://x.test/a",
    '<html><head><script type="application/ld+json">{"@type":"NewsArticle","datePublished": "2018-7-5"}</script></head><body><p>Hello</p></body></html>',
    "2018-07-05",
  ],
  [
    "byline-class",
    "https://x.test/a",
    '<html><body><h1>Title</h1><div class="byline">Published 05/10/2018 by Ana</div><p>Text text text.</p></body></html>',
    "2018-10-05",
  ],
  [
    "long-text",
    "https://x.test/a",
    '<html><body><h1>Title</h1><span class="post-date">October 12, 2017</span><p>Text.</p></body></html>',
    "2017-10-12",
  ],
  [
    "label-cleaned",
    "https://x.test/a",
    '<html><body><div class="date"><label>Date 2001-01-01</label>12 octobre 2016</div></body></html>',
    "2016-10-12",
  ],
  [
    "times-oldest",
    "https://x.test/a",
    '<html><body><time datetime="2019-05-06T10:00:00">a</time><time datetime="2019-05-04T09:00:00">b</time><p>no</p></body></html>',
    "2019-05-04",
  ],
  [
    "time-pubdate",
    "https://x.test/a",
    '<html><body><time datetime="2019-05-06">a</time><time class="entry-date" datetime="2019-05-08">b</time></body></html>',
    "2019-05-08",
  ],
  [
    "timestamp-source",
    "https://x.test/a",
    '<html><body><p>Hello</p><script>var t = "2016-02-03 04:05:06";</script></body></html>',
    "2016-02-03",
  ],
  [
    "after-html",
    "https://x.test/a",
    "<html><body><p>Hello</p></body></html><!-- served 2025-01-02 03:04:05 -->",
    null,
  ],
  [
    "phrase",
    "https://x.test/a",
    "<html><body><p>Hello there, this was posted on 12/10/2017 by me.</p></body></html>",
    "2017-10-12",
  ],
  [
    "text-iso",
    "https://x.test/a",
    "<html><body><p>Version of 2015-06-07, see notes.</p></body></html>",
    "2015-06-07",
  ],
  [
    "future",
    "https://x.test/a",
    '<html><head><meta name="date" content="2099-01-01"></head><body><p>Released 2099-01-01</p></body></html>',
    null,
  ],
  ["none", "https://x.test/a", "<html><body><p>Nothing dated here at all.</p></body></html>", null],
  [
    "og-image",
    "https://x.test/a",
    '<html><head><meta property="og:image" content="https://cdn.test/img/2014/03/02/a.jpg"></head><body><p>x</p></body></html>',
    "2014-03-02",
  ],
  [
    "title",
    "https://x.test/a",
    "<html><head><title>Report of 2013-04-05</title></head><body><p>x</p></body></html>",
    "2013-04-05",
  ],
  [
    "footer",
    "https://x.test/a",
    "<html><body><p>x</p><footer>Last update 2012.09.08</footer></body></html>",
    "2012-09-08",
  ],
  [
    "abbr",
    "https://x.test/a",
    '<html><body><abbr class="published" title="2011-02-03T04:05:06">Feb 3</abbr></body></html>',
    "2011-02-03",
  ],
  [
    "utime",
    "https://x.test/a",
    '<html><body><abbr data-utime="1300000000">x</abbr></body></html>',
    "2011-03-13",
  ],
];

describe("pageDate agrees with htmldate", () => {
  for (const [name, url, html, date] of PAGES) {
    test(name, () => {
      const doc = parseHtml(html);
      if (doc === null) throw new Error("no parse");
      expect(pageDate(doc, html, url, TODAY)).toBe(date);
    });
  }
});

describe("date expressions", () => {
  const range = dateRange(TODAY);
  const cases: [string, string | null][] = [
    ["2019-11-20T04:00:00Z", "2019-11-20"],
    ["2019-11-20T04:00:00.000Z", null], // ".000Z" reads as a code: htmldate refuses it too
    ["November 19, 2019, 07:47 PM EST", "2019-11-19"],
    ["05/10/2018", "2018-10-05"],
    ["20 Nov 2019", "2019-11-20"],
    ["Posted 2019/11/20 by x", "2019-11-20"],
    ["2019-11-20 04:00:00 UTC", "2019-11-20"],
    ["20191120", "2019-11-20"],
    ["2019", null],
    ["Nov. 20, 2019", null],
    ["Expires 12-20-2025", null], // month 20
    ["12:30 today", null],
    ["$2019.11", null],
    ["2019-02-30", "2019-02-01"], // no such day: its month, as htmldate reads it
    ["1994-12-31", null],
  ];
  for (const [text, day] of cases) {
    test(text, () => expect(dateExpression(text, range)?.day ?? null).toBe(day));
  }
  test("the oldest of several dates is chosen by the time written, not converted", () => {
    const html =
      '<time datetime="2019-05-06T01:00:00+09:00">a</time><time datetime="2019-05-05T23:00:00-05:00">b</time>';
    const doc = parseHtml(html);
    if (doc === null) throw new Error("no parse");
    expect(pageDate(doc, html, "https://x.test/", TODAY)).toBe("2019-05-05");
  });
});

describe("extractDocument().published", () => {
  test("an ISO date of the metadata comes first, as in the reference", () => {
    const html =
      '<html><head><meta name="date" content="2018-01-01"></head><body><p>x</p></body></html>';
    expect(extractDocument(html, "https://news.test/2019/11/20/a.html").published).toBe(
      "2018-01-01",
    );
  });

  test("documentation pages read <time> and the URL only, not their text", () => {
    const html =
      '<html><body><div class="body" role="main"><h1>Release</h1><p>Released 2015-06-07 with fixes.</p></div></body></html>';
    expect(extractDocument(html, "https://docs.test/release.html").published).toBeNull();
    expect(extractDocument(html, "https://docs.test/2016/01/02/release.html").published).toBe(
      "2016-01-02",
    );
  });

  test("documentation pages without one: a date labeled near the top of their text", () => {
    const page = (p: string) =>
      `<html><body><div class="body" role="main"><h1>E.1. Release 15.5</h1><p>${p}</p><p>This release contains a variety of fixes from 15.4.</p></div></body></html>`;
    expect(
      extractDocument(page("Release date: 2023-11-09"), "https://docs.test/r.html").published,
    ).toBe("2023-11-09");
    expect(
      extractDocument(page("Released on 2023-11-09"), "https://docs.test/r.html").published,
    ).toBeNull();
  });

  test("other pages: htmldate's heuristics", () => {
    const html =
      '<html><head><meta name="pubdate" content="November 20, 2019 12:32"></head><body><p>Hello world.</p></body></html>';
    expect(extractDocument(html, "https://x.test/a").published).toBe("2019-11-20");
  });
});
