/** Page dates beyond htmldate's heuristics: the date shown beside the main heading, its label
 * (an update's gives way to a declared publication date), numeric dates by the page's language,
 * microdata's datePublished, and timestamps in the source only when a publication key names
 * them. Pages are written here, not copied from any site. */
import { describe, expect, test } from "bun:test";
import {
  bylineDate,
  mainHeading,
  visibleDate,
  writesDayFirst,
} from "../../../src/extract/byline-date.ts";
import { dateRange } from "../../../src/extract/date-expressions.ts";
import { extractDocument } from "../../../src/extract/extract-document.ts";
import { pageDateOf } from "../../../src/extract/page-date.ts";
import { parseHtml } from "../../../src/extract/parse.ts";

const TODAY = new Date("2026-06-01T12:00:00Z");
const RANGE = dateRange(TODAY);
const doc = (html: string) => {
  const d = parseHtml(html);
  if (d === null) throw new Error("no tree");
  return d;
};
const shown = (body: string, title: string | null = null, language: string | null = null) =>
  bylineDate(doc(`<html><body>${body}</body></html>`), title, RANGE, language);
const prose =
  "Our team has spent the season comparing kettles, grinders and scales in a small test kitchen, " +
  "writing down what each one did well and where each one let us down over many mornings.";

describe("visibleDate", () => {
  test("month names, ordinals, ISO and slashes", () => {
    expect(visibleDate("By Ann Lee · March 5, 2025 · 4 min read", RANGE)?.day).toBe("2025-03-05");
    expect(visibleDate("5th of March, 2025", RANGE)?.day).toBe("2025-03-05");
    expect(visibleDate("Sept. 9, 2024", RANGE)?.day).toBe("2024-09-09");
    expect(visibleDate("posted 2024-11-02 by admin", RANGE)?.day).toBe("2024-11-02");
    expect(visibleDate("12 octobre 2023", RANGE)?.day).toBe("2023-10-12");
  });

  test("slashes are month first unless the page writes the day first; dots are day first", () => {
    expect(visibleDate("03/10/2023", RANGE)?.day).toBe("2023-03-10");
    expect(visibleDate("03/10/2023", RANGE, true)?.day).toBe("2023-10-03");
    expect(visibleDate("03.10.2023", RANGE)?.day).toBe("2023-10-03");
    expect(visibleDate("25/10/2023", RANGE)?.day).toBe("2023-10-25");
  });

  test("not a date: unknown words, impossible days, the future, mixed separators", () => {
    expect(visibleDate("Chapter 5, 2025 edition", RANGE)).toBeNull();
    expect(visibleDate("February 30, 2024", RANGE)).toBeNull();
    expect(visibleDate("March 5, 2027", RANGE)).toBeNull();
    expect(visibleDate("03/10.2023", RANGE)).toBeNull();
    expect(visibleDate("version 1.2.2023", RANGE)?.day).toBe("2023-02-01");
  });

  test("writesDayFirst: English as written in the US (or unnamed) writes the month first", () => {
    expect(writesDayFirst(null)).toBe(false);
    expect(writesDayFirst("en")).toBe(false);
    expect(writesDayFirst("en-US")).toBe(false);
    expect(writesDayFirst("en_GB")).toBe(true);
    expect(writesDayFirst("de")).toBe(true);
  });
});

describe("bylineDate", () => {
  test("the byline under the heading", () => {
    const d = shown(
      `<nav><a href="/">Home</a> Updated daily since January 2, 2020</nav><h1>Best kettles</h1>` +
        `<div class="meta"><span>By Ann Lee</span> <span>April 3, 2025</span></div><p>${prose}</p>`,
    );
    expect(d?.date.day).toBe("2025-04-03");
    expect(d?.updated).toBe(false);
  });

  test("a date line just above the heading", () => {
    const d = shown(`<p>News | 12 Dec 2025</p><h1>Plant opens</h1><p>${prose}</p>`);
    expect(d?.date.day).toBe("2025-12-12");
  });

  test("dates in prose, or far below the heading, are not the page's", () => {
    expect(
      shown(`<h1>Plans</h1><p>${prose} The next meeting is on May 4, 2026. ${prose}</p>`),
    ).toBeNull();
    expect(
      shown(`<h1>Plans</h1><p>${prose}</p><p>${prose}</p><p>${prose}</p><p>May 4, 2026</p>`),
    ).toBeNull();
  });

  test("scripts and forms are not read; a <time> without a readable text gives its datetime", () => {
    expect(shown(`<h1>T</h1><script>var d = "June 1, 2025";</script><p>${prose}</p>`)).toBeNull();
    expect(
      shown(
        `<h1>Question</h1><div>Asked <time datetime="2016-08-05T04:16:13Z">9 years ago</time></div>`,
      )?.date.day,
    ).toBe("2016-08-05");
  });

  test("an update's label is kept; a publication shown beside it is preferred", () => {
    const updated = shown(`<h1>Guide</h1><p>Last updated on November 19, 2025</p><p>${prose}</p>`);
    expect(updated).toEqual({
      date: expect.objectContaining({ day: "2025-11-19" }),
      updated: true,
    });
    const both = shown(
      `<h1>Guide</h1><p>Updated: Nov 19, 2025</p><p>Published: Feb 2, 2024</p><p>${prose}</p>`,
    );
    expect(both?.date.day).toBe("2024-02-02");
    expect(both?.updated).toBe(false);
  });

  test("the heading the title names, when a page has several <h1>", () => {
    const body =
      `<header><h1>Site name</h1><p>Since March 1, 2001</p></header>` +
      `<main><h1>Soup season</h1><p>Oct 2, 2024</p><p>${prose}</p></main>`;
    const d = doc(`<html><body>${body}</body></html>`);
    expect(mainHeading(d.body as NonNullable<typeof d.body>, "Soup season - Site name")).not.toBe(
      null,
    );
    expect(bylineDate(d, "Soup season - Site name", RANGE)?.date.day).toBe("2024-10-02");
    expect(bylineDate(d, null, RANGE)?.date.day).toBe("2001-03-01");
  });

  test("numeric dates follow the page's language", () => {
    const body = `<h1>Wine styles</h1><p>03/10/2023 by the team</p><p>${prose}</p>`;
    expect(shown(body, null, "en-US")?.date.day).toBe("2023-03-10");
    expect(shown(body, null, "en-GB")?.date.day).toBe("2023-10-03");
  });
});

describe("extractDocument().published: which date wins", () => {
  const page = (head: string, body: string) =>
    `<html><head>${head}</head><body><article>${body}<p>${prose}</p><p>${prose}</p></article></body></html>`;

  test("a declared publication date comes first", () => {
    const html = page(
      '<meta property="article:published_time" content="2024-08-01T16:53:14+00:00">',
      "<h1>Tutoring platforms</h1><p>November 18, 2025</p>",
    );
    expect(extractDocument(html, "https://x.test/a").published).toBe("2024-08-01");
  });

  test("then the byline, before htmldate's heuristics (a footer's date)", () => {
    const html = page(
      "",
      '<h1>Why embedded Rust</h1><div class="flex">Dec 12, 2025</div><footer class="footer">Site built 2026-01-30</footer>',
    );
    const out: { source: string | null } = { source: null };
    expect(extractDocument(html, "https://x.test/a", { dateSource: out as never }).published).toBe(
      "2025-12-12",
    );
    expect(out.source).toBe("byline");
  });

  test("a declared UTC time a day after the URL's date: the URL's day", () => {
    const html = page(
      '<meta property="article:published_time" content="2025-12-19T03:05:00+00:00">',
      "<h1>Evening post</h1>",
    );
    expect(extractDocument(html, "https://blog.test/2025/12/18/evening-post/").published).toBe(
      "2025-12-18",
    );
    expect(extractDocument(html, "https://blog.test/2025/12/10/evening-post/").published).toBe(
      "2025-12-19",
    );
  });

  test("microdata's datePublished is a declared date (a forum's first post)", () => {
    const html = page(
      "",
      '<h1>Quantum computing</h1><div itemscope><meta itemprop="datePublished" content="2023-03-09T14:21:23Z"><p>Last reply 2 days ago</p></div>',
    );
    expect(extractDocument(html, "https://forum.test/t/1").published).toBe("2023-03-09");
  });

  test("a documentation generator's page does not read the text beside its heading", () => {
    const html =
      '<html><body><div class="body" role="main"><h1>Release</h1><p>Released 2015-06-07 with fixes.</p></div></body></html>';
    expect(extractDocument(html, "https://docs.test/release.html").published).toBeNull();
  });
});

describe("pageDateOf: keyed timestamps", () => {
  const html = (script: string) =>
    `<html><head><script>${script}</script></head><body><p>${prose}</p></body></html>`;

  test("htmldate's step takes the first timestamp of the source, whatever it stamps", () => {
    const src = html('window.cfg = {"now":"2026-03-05T14:38:46Z"};');
    expect(pageDateOf(doc(src), src, "https://shop.test/p", TODAY)).toEqual({
      day: "2026-03-05",
      step: "stamp",
    });
  });

  test("keyed: only a timestamp a publication key names", () => {
    const cart = html(
      'window.cfg = {"now":"2026-03-05T14:38:46Z","updated_at":"2026-03-01T10:00:00Z"};',
    );
    expect(pageDateOf(doc(cart), cart, "https://shop.test/p", TODAY, { keyedStamps: true })).toBe(
      null,
    );
    const post = html(
      'window.cfg = {"now":"2026-03-05T14:38:46Z","post":{"datePublished":"2024-04-08T06:59:34"}};',
    );
    expect(
      pageDateOf(doc(post), post, "https://blog.test/p", TODAY, { keyedStamps: true }),
    ).toEqual({ day: "2024-04-08", step: "stamp" });
  });
});
