import { describe, expect, test } from "bun:test";
import { scorePage } from "../../../src/facets/score-page.ts";
import { AUDIENCES, FORMATS, TOPICS, TYPES } from "../../../src/facets/vocabulary.ts";
import { ENGLISH, GERMAN, makeDoc } from "./helpers.ts";

describe("scorePage", () => {
  test("a pricing page is pricing, shown as a landing page, and says why", () => {
    const text =
      "Simple pricing. Free $0 / month, 1 project. Launch $19 / month, 10 projects. " +
      "Scale $69 / month, 50 projects, billed annually. Enterprise: contact sales.";
    const { facets, explain } = scorePage(
      makeDoc(text, { title: "Pricing | Stackmint" }),
      "https://stackmint.io/pricing",
    );
    expect(facets.type).toBe("pricing");
    expect(facets.format).toBe("landing");
    expect(explain.type.some((r) => r.includes("pricing +3: path matches"))).toBe(true);
    expect(facets.promotional).toBeGreaterThan(0.3);
  });

  test("JobPosting markup makes a job page for job seekers", () => {
    const text = "We are looking for a storage engineer to work on our page server. ".repeat(5);
    const { facets } = scorePage(
      makeDoc(text, {
        title: "Senior Storage Engineer",
        jsonldTypes: ["https://schema.org/JobPosting"],
      }),
      "https://example.com/some/page",
    );
    expect(facets.type).toBe("job");
    expect(facets.audience).toBe("job_seekers");
  });

  test("a partner programme is for partners; affiliates named in a post are not", () => {
    const programme =
      "Become a partner and grow with us. Our partner programme gives accountants a dedicated " +
      "manager, training and revenue share. Apply to the partner programme today.";
    const partners = scorePage(
      makeDoc(programme, { title: "Partner programme" }),
      "https://ledger.example/programme",
      { model: null },
    );
    expect(partners.facets.audience).toBe("partners");
    const post =
      "I saw people trying to recruit affiliates before their product was proven. No " +
      "self-respecting affiliate will sell an unproven product, so build the product first. ";
    const blog = scorePage(
      makeDoc(post.repeat(3), { title: "Do you have what it takes?" }),
      "https://example.com/blog/business-focus",
      { model: null },
    );
    expect(blog.facets.audience).not.toBe("partners");
  });

  test("shell sessions on an administrator's page are for technical readers, code in a programmer's for developers", () => {
    const shell =
      "```\n$ apt-cache policy nginx\nnginx:\n  Installed: 1.22.1\n  Candidate: 1.22.1\n  500 http://deb.debian.org/debian bookworm/main\n$ apt-cache search proxy server\n```\n";
    const admin =
      "The apt-cache command searches the package lists that apt keeps for every configured " +
      "server. Install the package, configure the proxy server and restart the daemon with " +
      "systemd. The firewall and the network configuration come next.\n\n";
    const ops = scorePage(
      makeDoc(admin + shell + admin + shell, { title: "The apt-cache command" }),
      "https://handbook.example/docs/apt-cache",
      { model: null },
    );
    expect(ops.facets.audience).toBe("technical");
    const python =
      "```\nimport json\ndata = json.loads(text)\nfor key in data:\n    print(key)\nresult = parse(data)\n```\n";
    const dev =
      "The json module parses a string into Python objects; the function returns a dict and " +
      "raises an exception when the syntax is wrong. Pass an object hook as an argument.\n\n";
    const code = scorePage(
      makeDoc(dev + python + dev + python, { title: "Parsing JSON" }),
      "https://handbook.example/docs/json",
      { model: null },
    );
    expect(code.facets.audience).toBe("developers");
  });

  test("a news article's words tell business and consumer readers from everyone", () => {
    const article = (text: string) =>
      scorePage(
        makeDoc(text.repeat(3), {
          title: "Today's story",
          jsonldTypes: ["https://schema.org/NewsArticle"],
          published: "2019-11-19",
        }),
        "https://news.example/2019/11/19/story",
        { model: null },
      ).facets;
    const deals =
      "The best Black Friday deals are here. If you want to buy a laptop, these prices are the " +
      "lowest we have seen, and our review explains which one suits your needs. ";
    expect(article(deals).type).toBe("news");
    expect(article(deals).audience).toBe("consumers");
    const markets =
      "Asian shares slipped as traders weighed trade talks. Stocks of energy companies fell " +
      "after profits missed forecasts, and markets in Tokyo closed lower on the day. ";
    expect(article(markets).audience).toBe("business");
    const politics =
      "The senate moved a motion to adjourn after the death of a member. Lawmakers paid " +
      "tribute to him and the session will resume next week, the president of the senate said. ";
    expect(article(politics).audience).toBe("general");
    const conseils =
      "Laissez brûler votre bougie deux heures la première fois. Coupez votre mèche avant " +
      "chaque allumage, et vous garderez vos bougies plus longtemps. ";
    expect(article(conseils).audience).toBe("consumers");
  });

  test("an offering in Portuguese with a business buyer's words is for business", () => {
    const text =
      "Planos e preços. Inicial: R$ 59 por mês, até 20 faturas por mês. Crescimento: R$ 139 " +
      "por mês, faturas ilimitadas e integração contábil. Pro: R$ 279 por mês para equipes.";
    const { facets } = scorePage(
      makeDoc(text, { title: "Preços | Ledgerly", language: "pt-BR" }),
      "https://ledgerly.example/pt-br/pricing",
      { model: null },
    );
    expect(facets.type).toBe("pricing");
    expect(facets.audience).toBe("business");
  });

  test("release notes with few technical words are still for technical readers", () => {
    const text =
      "Release notes, May 2025. New: shared calendars for all plans. Improved: faster loading " +
      "of reports. Fixed: the export button did nothing in some browsers.";
    const { facets } = scorePage(
      makeDoc(text, { title: "Release notes May 2025" }),
      "https://orbit.example/release-notes/2025-05",
      { model: null },
    );
    expect(facets.type).toBe("changelog");
    expect(facets.audience).toBe("technical");
  });

  test("a wrongly declared language is corrected by the text", () => {
    const { facets, explain } = scorePage(
      makeDoc(GERMAN, { language: "en" }),
      "https://docs.example.de/server/ssh",
    );
    expect(facets.locale).toBe("de");
    expect(explain.locale.some((r) => r.startsWith("ignored en"))).toBe(true);
  });

  test("a declared region is kept when the language agrees; URL and header complete it", () => {
    const doc = makeDoc(ENGLISH, { language: "en-us" });
    expect(scorePage(doc, "https://x.example/blog/a").facets.locale).toBe("en-US");
    const plain = makeDoc(ENGLISH, { language: "en" });
    expect(scorePage(plain, "https://x.example/en-gb/blog/a").facets.locale).toBe("en-GB");
    const german = scorePage(makeDoc(GERMAN), "https://x.example/a", { contentLanguage: "de-AT" });
    expect(german.facets.locale).toBe("de-AT");
  });

  test("no declaration and too little text: und", () => {
    expect(scorePage(makeDoc("Hi."), "https://x.example/a").facets.locale).toBe("und");
  });

  test("a near-duplicate loses originality", () => {
    const doc = makeDoc(ENGLISH.repeat(4));
    const unique = scorePage(doc, "https://x.example/blog/a", { maxSimilarity: 0.5 });
    const dup = scorePage(doc, "https://x.example/blog/a", { maxSimilarity: 0.98 });
    expect(unique.facets.originality).toBeGreaterThan(0.9);
    expect(dup.facets.originality).toBeLessThan(0.2);
  });

  test("scores stay in [0, 1] with 3 decimals and values in the vocabularies", () => {
    for (const [text, url] of [
      [ENGLISH, "https://x.example/"],
      ["", "https://x.example/a"],
      ["Buy now! Best deal! Free trial! ".repeat(20), "https://x.example/lp/promo"],
      [GERMAN, "not a url"],
    ] as const) {
      const { facets } = scorePage(makeDoc(text), url);
      for (const v of [facets.technicality, facets.depth, facets.originality, facets.promotional]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
        expect(Math.round(v * 1000) / 1000).toBe(v);
      }
      expect(Object.keys(TYPES)).toContain(facets.type);
      expect(Object.keys(FORMATS)).toContain(facets.format);
      expect(Object.keys(AUDIENCES)).toContain(facets.audience);
      for (const t of facets.topics) expect(Object.keys(TOPICS)).toContain(t);
      expect(facets.topics.length).toBeLessThanOrEqual(5);
    }
  });

  test("sales copy is promotional, API reference is technical", () => {
    const promo = scorePage(
      makeDoc(
        "Get started free! The best, most powerful, seamless platform. Book a demo today and save 50%! ".repeat(
          5,
        ),
      ),
      "https://x.example/lp/a",
    ).facets;
    const tech = "Call `client.list_users(limit=50)`; it returns User objects. ".repeat(10);
    const ref = scorePage(
      makeDoc(tech, { markdown: `\`\`\`python\nclient.list_users()\n\`\`\`\n${tech}` }),
      "https://x.example/docs/api/users",
    ).facets;
    expect(promo.promotional).toBeGreaterThan(0.6);
    expect(ref.promotional).toBeLessThan(0.6);
    expect(ref.technicality).toBeGreaterThan(promo.technicality);
    expect(ref.has_code).toBe(true);
    expect(ref.type).toBe("api_reference");
  });

  test("published: the page's date, else the sitemap's, never the crawl date", () => {
    const dated = makeDoc(ENGLISH, { published: "2024-05-01" });
    expect(
      scorePage(dated, "https://x.example/blog/a", { sitemapLastmod: "2025-01-01" }).facets
        .published,
    ).toBe("2024-05-01");
    const undated = scorePage(makeDoc(ENGLISH), "https://x.example/a", {
      sitemapLastmod: "2025-01-01",
    });
    expect(undated.facets.published).toBe("2025-01-01");
    expect(undated.explain.published).toEqual(["sitemap lastmod"]);
    expect(scorePage(makeDoc(ENGLISH), "https://x.example/a").facets.published).toBeNull();
  });

  test("topics come from the keyword vocabulary", () => {
    const text =
      "PostgreSQL stores rows in tables. A query planner picks an index for each query; " +
      "transactions keep the database consistent. ".repeat(6);
    const { facets, explain } = scorePage(
      makeDoc(text, { title: "Database indexes" }),
      "https://x.example/docs/db",
    );
    expect(facets.topics[0]).toBe("databases");
    expect(explain.topics[0]).toMatch(/^databases: \d+ keyword hits/);
  });

  test("every explained facet says something", () => {
    const { explain } = scorePage(
      makeDoc(ENGLISH, { title: "Branching" }),
      "https://x.example/blog/b",
    );
    for (const [facet, reasons] of Object.entries(explain)) {
      if (facet === "topics") continue;
      expect(reasons.length).toBeGreaterThan(0);
    }
  });
});
