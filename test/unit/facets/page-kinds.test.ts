import { describe, expect, test } from "bun:test";
import { scorePage } from "../../../src/facets/score-page.ts";
import { makeDoc } from "./helpers.ts";

const THREAD =
  "Hello, since the update to iOS 13 none of my devices can reach the App Store over mobile data. " +
  "I restarted the phone several times and checked every setting. Does anyone have an idea? " +
  "Reply: the same happened to me, switching the setting off and on again helped. ";

describe("page kinds the reference missed", () => {
  test("a forum thread is support shown as questions and answers", () => {
    for (const [url, ld] of [
      ["https://www.example-forum.net/threads/app-store-ios-13.230143/", []],
      ["https://foren.example.de/viewtopic.php?f=4&t=167", []],
      ["https://example.org/p/1", ["DiscussionForumPosting"]],
    ] as const) {
      const { facets, explain } = scorePage(
        makeDoc(THREAD.repeat(2), { title: "App Store over mobile data", jsonldTypes: ld }),
        url,
        { model: null },
      );
      expect(facets.type).toBe("support");
      expect(facets.format).toBe("faq");
      expect(explain.format).toContain("faq: forum or Q&A thread");
    }
  });

  test("a shop's product page is a product for consumers", () => {
    const text =
      "Rabbit hutch with run, solid pine. 104 x 52 x 97 cm. €129.99 incl. VAT. In stock, " +
      "free shipping. Add to cart. The hutch opens from the top and the front. ";
    const { facets, explain } = scorePage(
      makeDoc(text.repeat(2), { title: "Natura rabbit hutch" }),
      "https://shop.example.com/natura-rabbit-hutch",
      { model: null },
    );
    expect(facets.type).toBe("product");
    expect(facets.format).toBe("landing");
    expect(facets.audience).toBe("consumers");
    expect(explain.type.some((r) => r.includes("shop words"))).toBe(true);
  });

  test("service, event, imprint and wiki pages", () => {
    const prose = "Our engineers plan load-bearing structures for buildings and bridges. ".repeat(
      8,
    );
    const cases = [
      [
        "https://www.example-ingenieure.de/de/hochbau/leistungen/tragwerksplanung",
        "Tragwerksplanung",
        "product",
      ],
      ["https://www.example.de/veranstaltung/887/", "Historischer Markt", "event"],
      ["https://www.example.de/kontakt/impressum-agentur/", "Impressum - Agentur", "legal"],
      [
        "https://games.fandom.com/wiki/Water-Making_Spell",
        "Water-Making Spell - Games Wiki",
        "other",
      ],
    ] as const;
    for (const [url, title, type] of cases) {
      expect(scorePage(makeDoc(prose, { title }), url, { model: null }).facets.type).toBe(type);
    }
  });

  test("a careers section speaks to job seekers", () => {
    const { facets } = scorePage(
      makeDoc("Meet forty employers at the career fair in Schaffhausen on 30 March. ".repeat(5), {
        title: "Career event Schaffhausen",
      }),
      "https://example.ch/de/karriere/events-messen/119-career-event",
      { model: null },
    );
    expect(facets.type).toBe("event");
    expect(facets.audience).toBe("job_seekers");
  });
});
