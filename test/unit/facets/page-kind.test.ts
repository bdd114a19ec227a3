import { describe, expect, test } from "bun:test";
import type { Link } from "../../../src/extract/document.ts";
import { withKindFormat } from "../../../src/facets/format-rules.ts";
import { decodeKindModel, encodeKindModel } from "../../../src/facets/kind-model-file.ts";
import {
  kindFeatures,
  PAGE_KINDS,
  type PageKind,
  PageKindModel,
} from "../../../src/facets/page-kind-model.ts";
import { isLinkList, titledLinks } from "../../../src/facets/page-kinds.ts";
import { scorePage } from "../../../src/facets/score-page.ts";
import { computeSignals } from "../../../src/facets/signals.ts";
import { decideType, sellingSignals } from "../../../src/facets/type-rules.ts";
import type { PageType } from "../../../src/facets/vocabulary.ts";
import { makeDoc } from "./helpers.ts";

const PROSE =
  "Our team installs and maintains heat pumps for homes across the region. We measure the " +
  "house, size the pump and plan the installation with you, then our engineers fit it in a " +
  "day and come back every year for the service visit. ";

const sig = (text: string, jsonldTypes: string[] = []) => {
  const doc = makeDoc(text, { jsonldTypes });
  return computeSignals(doc, text, text);
};

const bodyLink = (url: string, anchorText: string): Link => ({
  url,
  anchorText,
  position: "body",
  nofollow: false,
});

describe("pages that sell are not news", () => {
  test("offering markup, billing periods or prices beside calls to action are selling signals", () => {
    expect(sellingSignals(sig(PROSE, ["Service"]))).toEqual(["JSON-LD service"]);
    expect(sellingSignals(sig(`${PROSE} Basic $10 per month, Pro $20 per month.`))).toEqual([
      "2 billing periods",
    ]);
    expect(sellingSignals(sig(PROSE.repeat(3)))).toEqual([]);
  });

  test("a dated page with Product markup is not a dated article", () => {
    const text = PROSE.repeat(5);
    const opts = { model: null, kindModel: null } as const;
    const article = scorePage(
      makeDoc(text, { published: "2025-03-01", ogType: "article" }),
      "https://example.com/p/1",
      opts,
    );
    expect(article.facets.type).toBe("news");
    const selling = scorePage(
      makeDoc(text, { published: "2025-03-01", ogType: "article", jsonldTypes: ["Product"] }),
      "https://example.com/p/1",
      opts,
    );
    expect(selling.facets.type).toBe("product");
    expect(selling.explain.type.some((r) => r.startsWith("dated, but not an article"))).toBe(true);
  });
});

describe("listings", () => {
  const links = Array.from({ length: 12 }, (_, i) =>
    bodyLink(`https://example.com/posts/${i}`, `How we moved service number ${i} to a new region`),
  );
  const anchors = links.map((l) => l.anchorText).join(". ");

  test("repeated titled links making most of the text are a list of pages", () => {
    const doc = makeDoc(`${anchors}. Older posts.`, { links });
    expect(titledLinks(doc).count).toBe(12);
    expect(isLinkList(doc)).toBe(true);
    const opts = { model: null, kindModel: null } as const;
    const facets = scorePage(doc, "https://example.com/all-posts", opts).facets;
    expect(facets.format).toBe("listing");
    expect(facets.type).toBe("listing");
  });

  test("the same links in a long article do not make it a listing", () => {
    const doc = makeDoc(`${PROSE.repeat(12)} ${anchors}`, { links });
    expect(isLinkList(doc)).toBe(false);
  });

  test("a long table of contents is a listing though the links are read in its opening only", () => {
    const entries = Array.from(
      { length: 400 },
      (_, i) => `- [${i}.1. Using the interpreter, part ${i}](tutorial/p${i}.html)`,
    ).join("\n");
    const text = entries.replace(/\]\([^)]*\)/g, "").replace(/\[/g, "");
    const doc = makeDoc(text, { markdown: entries, words: 29000 });
    const { facets } = scorePage(doc, "https://docs.example.org/3/contents.html", {
      model: null,
      kindModel: null,
    });
    expect(facets.format).toBe("listing");
  });
});

describe("the page-kind vote", () => {
  const listing = { kind: "listing" as PageKind, prob: 0.7 };

  test("decides a weak format unless a specific signal said what the page is made of", () => {
    const why: string[] = [];
    expect(withKindFormat({ label: "article", strong: false }, listing, false, why).label).toBe(
      "listing",
    );
    expect(why[0]).toBe("listing: page kind listing or collection p=0.70 (rule said article)");
    expect(withKindFormat({ label: "faq", strong: true }, listing, false, []).label).toBe("faq");
    const service = { kind: "service" as PageKind, prob: 0.5 };
    expect(withKindFormat({ label: "article", strong: false }, service, false, []).label).toBe(
      "landing",
    );
    // Decisive type rules ask for a surer vote.
    expect(withKindFormat({ label: "article", strong: false }, service, true, []).label).toBe(
      "article",
    );
    expect(withKindFormat({ label: "article", strong: false }, null, false, []).label).toBe(
      "article",
    );
  });

  test("listing and collection count together unless the rules were sure", () => {
    const split = {
      kind: "collection" as PageKind,
      prob: 0.35,
      probs: { listing: 0.3, collection: 0.35, article: 0.35 },
    };
    const article = { label: "article", strong: false } as const;
    expect(withKindFormat(article, split, false, []).label).toBe("listing");
    expect(withKindFormat(article, split, true, []).label).toBe("article");
    const weak = { scores: new Map<PageType, number>(), referencePath: false };
    const why: string[] = [];
    expect(decideType(weak, why, undefined, split)).toBe("listing");
    expect(why[0]).toBe("listing +2.6: page kind collection, listing p=0.65");
  });

  test("is type evidence only when the rules are not decisive", () => {
    const weak = { scores: new Map<PageType, number>([["blog", 1.4]]), referencePath: false };
    expect(decideType(weak, [], undefined, listing)).toBe("listing");
    const strong = { scores: new Map<PageType, number>([["about", 3]]), referencePath: false };
    const why: string[] = [];
    expect(decideType(strong, why, undefined, listing)).toBe("about");
    expect(why).toContain("page kind listing: listing p=0.70 (not used: rules decisive)");
  });

  test("the model file keeps the vocabulary and the weights to int8 precision", () => {
    const vocab = new Map([
      ["u", new Map([["w_category", 0]])],
      ["t", new Map<string, number>()],
      ["h", new Map<string, number>()],
      ["b", new Map<string, number>()],
      ["f", new Map([["words0", 1]])],
    ] as const);
    const k = PAGE_KINDS.length;
    const weights = new Float32Array(2 * k);
    weights[PAGE_KINDS.indexOf("listing")] = 3;
    weights[k + PAGE_KINDS.indexOf("article")] = -1.5;
    const model = new PageKindModel(vocab, PAGE_KINDS, new Float32Array(k), weights);
    const back = decodeKindModel(encodeKindModel(model));
    expect(back.classes).toEqual(PAGE_KINDS);
    expect(back.weight(0, PAGE_KINDS.indexOf("listing"))).toBeCloseTo(3, 1);
    expect(back.weight(1, PAGE_KINDS.indexOf("article"))).toBeCloseTo(-1.5, 1);
    const doc = makeDoc("Shoes. Boots. Sandals.");
    const feats = kindFeatures(doc, "https://shop.example/category/shoes", sig("x"), false);
    expect(feats.u).toContain("w_category");
    expect(back.predict(feats).kind).toBe("listing");
  });
});

describe("a table of contents behind a long preamble", () => {
  const preamble = PROSE.repeat(30); // a title page and a legal notice: 1,200 words of prose
  const toc = Array.from(
    { length: 400 },
    (_, i) =>
      `- [Chapter ${i} on the installation of heat pump model ${i}](https://acme.test/c${i}.html)`,
  ).join("\n");
  const markdown = `# The handbook\n\n${preamble}\n\n## Contents\n\n${toc}\n`;
  const doc = makeDoc(markdown, { title: "The handbook" });

  test("its opening is prose, the page is mostly links", () => {
    const s = computeSignals(doc, markdown.slice(0, 8000), markdown.slice(0, 8000));
    expect(s.linkShare).toBeLessThan(0.5);
    expect(s.pageLinkShare).toBeGreaterThan(0.6);
  });

  test("its format is listing; the preamble alone is not", () => {
    expect(scorePage(doc, "https://acme.test/handbook/index.html").facets.format).toBe("listing");
    const prose = makeDoc(`# The handbook\n\n${preamble}`, { title: "The handbook" });
    expect(scorePage(prose, "https://acme.test/handbook/index.html").facets.format).not.toBe(
      "listing",
    );
  });
});
