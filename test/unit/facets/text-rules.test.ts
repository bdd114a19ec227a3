import { describe, expect, test } from "bun:test";
import { codeBlocks, hasCode } from "../../../src/facets/code.ts";
import { eldDetector } from "../../../src/facets/language-detector.ts";
import { normalizeTag, pageLocale, sameLanguage } from "../../../src/facets/locale.ts";
import { tokenStats } from "../../../src/facets/scores.ts";
import { Bag, vocab } from "../../../src/facets/text-stats.ts";
import { codePointPrefix, countMatches, uRegex } from "../../../src/facets/unicode-regex.ts";
import { ENGLISH, GERMAN } from "./helpers.ts";

describe("unicode regexes", () => {
  test("\\b and \\w see letters of every script", () => {
    expect(uRegex(String.raw`\bapi\b`, "i").test("APIの説明")).toBe(false);
    expect(uRegex(String.raw`\bapi\b`, "i").test("die API-Referenz")).toBe(true);
    expect("Schlüssel öffnen".match(uRegex(String.raw`\w+`, "g"))).toEqual(["Schlüssel", "öffnen"]);
    expect(uRegex(String.raw`\b(tag:)\b`).test("tag:python")).toBe(true);
    expect(uRegex(String.raw`\b(tag:)\b`).test("tag: python")).toBe(false);
    expect(countMatches(uRegex(String.raw`\d+`, "g"), "१२ and 34 and ٥٦")).toBe(3);
  });
});

describe("codePointPrefix", () => {
  test("counts code points as Python's text[:n] does", () => {
    expect(codePointPrefix("ab😀cd", 3)).toBe("ab😀");
    expect(codePointPrefix("ab😀cd", 4)).toBe("ab😀c");
    expect(codePointPrefix("😀😀😀", 2)).toBe("😀😀");
    expect("😀😀😀".slice(0, 2)).toBe("😀"); // what a UTF-16 slice would give
  });

  test("leaves a short text whole", () => {
    expect(codePointPrefix("abc", 3)).toBe("abc");
    expect(codePointPrefix("a😀", 2)).toBe("a😀");
    expect(codePointPrefix("", 5)).toBe("");
  });

  test("a lone surrogate is one code point, as in Python", () => {
    expect(codePointPrefix("\ud800ab", 2)).toBe("\ud800a");
    expect(codePointPrefix("a\udc00b", 2)).toBe("a\udc00");
    expect(codePointPrefix("ab\ud800", 3)).toBe("ab\ud800");
  });
});

describe("token bags", () => {
  test("words, stems and phrases are counted once per occurrence", () => {
    const bag = new Bag(
      "You'll configure the servers; the server configuration is on the server-side.",
    );
    expect(bag.count(vocab("server*"))).toBe(3);
    expect(bag.count(vocab("configur*", "configuration"))).toBe(3);
    expect(bag.count(vocab("you'll", "server side"))).toBe(2);
    expect(bag.count(vocab("serv*", "server*"))).toBe(3);
    expect(bag.n).toBe(12);
  });

  test("identifiers, numbers and names inside sentences are told apart", () => {
    const stats = tokenStats(
      "Call os.path.join() with --force and my_var, then read /etc/apt/sources.list. In 2024 Alice came.",
    );
    expect(stats.identifiers).toBe(4);
    expect(stats.numbers).toBe(1);
    expect(stats.names).toBe(1);
  });
});

describe("has_code", () => {
  test("a fenced block of code counts, prose in a block and inline code do not", () => {
    expect(hasCode("Run this:\n\n```bash\napt install nginx\n```\n").hasCode).toBe(true);
    expect(hasCode("A poem:\n\n```\nRoses are red\nviolets are blue\n```\n").hasCode).toBe(false);
    expect(hasCode("Set `DATABASE_URL` and call `chown` on it.").hasCode).toBe(false);
    expect(hasCode("```text\nkey = value\n```").hasCode).toBe(true);
  });

  test("commands after a prompt flattened into code spans count", () => {
    const r = hasCode("`$` **`diff -u old new`**");
    expect(r).toEqual({ hasCode: true, reason: "1 command line(s) shown after a prompt" });
  });

  test("indented, tilde and unterminated fences are blocks", () => {
    const md = "1. Step\n\n   ~~~python\n   x = 1\n   ~~~\n\n```js\nlet y = 2;";
    expect(codeBlocks(md).map((b) => b.language)).toEqual(["python", "js"]);
  });
});

describe("locale", () => {
  test("tags are normalized, aliases mapped", () => {
    expect(normalizeTag("en_us")).toBe("en-US");
    expect(normalizeTag("zh-hant-tw")).toBe("zh-Hant-TW");
    expect(normalizeTag("iw")).toBe("he");
    expect(normalizeTag("es-419")).toBe("es-419");
    expect(normalizeTag("english")).toBeNull();
    expect(sameLanguage("nb-NO", "da")).toBe(true);
    expect(sameLanguage("de", "en")).toBe(false);
  });

  test("hreflang for the page itself and the URL path are declarations", () => {
    const why: string[] = [];
    const tag = pageLocale(
      {
        declared: null,
        text: GERMAN,
        url: "https://x.example/a/",
        hreflang: [["de-CH", "https://x.example/a"]],
      },
      eldDetector,
      why,
    );
    expect(tag).toBe("de-CH");
    expect(why).toContain("declared de-CH (hreflang self)");
    expect(
      pageLocale({ declared: null, text: ENGLISH, url: "https://x.example/fr/a" }, eldDetector, []),
    ).toBe("en");
  });

  test("an untranslated page under a translation's URL reads as the source language", () => {
    const text = `${ENGLISH} `.repeat(12);
    const why: string[] = [];
    expect(
      pageLocale({ declared: "de-DE", text, url: "https://x.example/de-DE/a" }, eldDetector, why),
    ).toBe("en");
    expect(why.some((r) => r.startsWith("ignored de-DE (html lang)"))).toBe(true);
  });

  test("a translation that keeps untranslated stretches keeps its declared language", () => {
    // 16 blocks of 380 characters; the checked windows start at blocks 0, 2, 4, … and the sample
    // reads blocks 0-2 and 8-10: German only at blocks 4 and 12.
    const blocks = Array.from({ length: 16 }, (_, i) =>
      (i === 4 || i === 12 ? GERMAN : ENGLISH).slice(0, 379).padEnd(380, " "),
    );
    const text = blocks.join("");
    const why: string[] = [];
    const tag = pageLocale({ declared: "de", text, url: "https://x.example/a" }, eldDetector, why);
    expect(why[0]).toMatch(/^detected en/);
    expect(tag).toBe("de");
    expect(why).toContain("declared de (html lang): part of the text is de");
  });
});
