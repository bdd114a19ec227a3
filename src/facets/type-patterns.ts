/**
 * The evidence tables of the type rules: URL path, host, JSON-LD type and title patterns, each
 * adding a weight to one type label.
 */
import { FAN_WIKI_HOST, FORUM_HOST, FORUM_PATH } from "./page-kinds.ts";
import { uRegex } from "./unicode-regex.ts";
import type { PageType } from "./vocabulary.ts";

export interface Pattern {
  readonly re: RegExp;
  /** The pattern as written, for explanations. */
  readonly source: string;
  readonly label: PageType;
  readonly weight: number;
}

function table(rows: readonly (readonly [string, PageType, number])[], flags = ""): Pattern[] {
  return rows.map(([source, label, weight]) => ({
    re: uRegex(source, flags),
    source,
    label,
    weight,
  }));
}

/** Patterns on the lowercased URL path. */
export const PATH_RULES = table([
  [
    String.raw`/(pricing|plans|price|tarifs?|preise|prix|precios|precos|prezzi)(/|\.|$)`,
    "pricing",
    3,
  ],
  [
    String.raw`/(careers?|jobs|join-us|work-with-us|karriere|emplois?)/?(index\.html?)?$`,
    "careers",
    3,
  ],
  ["/(jobs|careers|positions|openings|vacancies)/[^/]+", "job", 2.5],
  [
    "/(docs?|documentation|manual|handbook|guides?|tutorials?|learn|howto|kb-docs|dokumentation)(/|$)",
    "docs",
    2,
  ],
  [
    String.raw`/(api|reference|sdk|cli|library|c-api)(/|$)|/sql-[a-z]+\.html?$|/api-|/(functions?|runtime-config|config-reference)[-/.]`,
    "api_reference",
    2,
  ],
  ["/(blog|blogs|posts?|articles?|journal|stories)(/|$)", "blog", 2.5],
  ["/(news|press|newsroom|press-releases?|media-center)(/|$)", "news", 2.5],
  ["/(case-stud(y|ies)|customers?|customer-stories|success-stories)(/|$)", "case_study", 3],
  [
    String.raw`/(about(-us)?|company|team|leadership|mission|our-story|ueber-uns)(/|\.|$)`,
    "about",
    3,
  ],
  [String.raw`/(contact(-us)?|kontakt|talk-to-sales|contact-sales)(/|\.|$)`, "contact", 3],
  [
    String.raw`/(legal|privacy|terms|tos|cookies?|imprint|impressum|gdpr|dpa|licen[cs]e|copyright|trust|datenschutz|agb|mentions-legales|conditions-generales[\w-]*|aviso-legal|privacidad|security-policy|acceptable-use|privacy-policy|terms-of-service|forums?-regeln|forum-rules|community-guidelines)(/|\.|-|$)`,
    "legal",
    3,
  ],
  [
    String.raw`/(support|help|faq|kb|knowledge-?base|troubleshooting|status|hilfe|ayuda|aide|ajuda|service[_-]disruptions?|disruptions?|incidents?|stoerungen)(/|\.|$)`,
    "support",
    2.5,
  ],
  [
    String.raw`/(changelog|release-?notes|releases|whatsnew|whats-new|updates|changes)(/|\.|$)|/release-\d`,
    "changelog",
    3,
  ],
  [
    "/(events?|webinars?|conference|summit|meetups?|workshops?|veranstaltung(en)?|termine|events-messen)(/|$)",
    "event",
    3,
  ],
  ["/(integrations?|apps|marketplace|connectors?|plugins?|extensions)(/|$)", "integration", 3],
  [
    "/(products?|produkte?|features?|platform|solutions?|services|leistungen|dienstleistungen)(/|$)|-service(s)?/?$",
    "product",
    2.5,
  ],
  ["/(lp|landing|campaigns?|get-started|try|demo|offers?|promo)(/|$)", "landing", 3],
  [
    String.raw`/(tags?|category|categories|kategorien?|produkt[_-]?kategorien?|archives?|page/\d+|search|sitemap|genindex|topics)(/|$)|/collections/[^/]+/?$`,
    "listing",
    3,
  ],
  ["/(investors?|ir)(/|$)", "about", 3],
  [
    String.raw`/(nachhaltigkeit|sustainability|verantwortung|unser-?verein|uber-uns|wir-uber-uns)(/|\.|-|$)`,
    "about",
    2.5,
  ],
  [FORUM_PATH, "support", 2.5],
  ["/(ratgeber|magazin|magazine)(/|$)", "blog", 2.5],
  ["/(genindex|(py-)?modindex)", "listing", 5],
  // A table of contents or a book's index: a page of links to every other page.
  [String.raw`/(contents|toc|table-of-contents|bookindex)(\.html?)?$`, "listing", 5],
  // A section's own page (the path ends at the section): the index of its posts or items.
  [
    "/(blog|blogs|news|newsroom|press|articles|posts|stories|insights|resources|recipes|issues|podcasts|videos|webinars|events|courses|reviews|guides|tutorials)/?$",
    "listing",
    3.5,
  ],
  ["/(partners?|partner-program(me)?|affiliates?|resellers?)(/|$)", "landing", 2],
]);

/** Patterns on the lowercased host name. */
export const HOST_RULES = table([
  [String.raw`^(docs|developers?|dev|manual|handbook|learn)\.|handbook|-docs\.`, "docs", 2],
  [String.raw`^blog\.`, "blog", 2.5],
  [String.raw`^(news|press|newsroom)\.`, "news", 2.5],
  [String.raw`^(help|support|status|community)\.`, "support", 2.5],
  [FORUM_HOST, "support", 2.5],
  [FAN_WIKI_HOST, "other", 2.5],
  [String.raw`^(jobs|careers)\.`, "careers", 2],
]);

/** Patterns on the title and the first heading (case-insensitive). */
export const TITLE_RULES = table(
  [
    [String.raw`\b(pricing|plans? (and|&) pricing|compare plans)\b`, "pricing", 2.5],
    [String.raw`\b(careers?|join our team|open positions|we'?re hiring|jobs at)\b`, "careers", 2],
    [
      String.raw`\b(privacy|terms (of|and) (service|use)|cookie policy|legal notice|imprint|data processing|acceptable use|licen[cs]e agreement|impressum|datenschutz\w*|agb|nutzungsbedingungen|forums?-regeln|community guidelines)\b`,
      "legal",
      2.5,
    ],
    [String.raw`\b(contact( us)?|get in touch|talk to sales)\b`, "contact", 2],
    [
      String.raw`\b(about us|our story|our mission|leadership team|who we are|über uns|ueber uns|unser verein)\b`,
      "about",
      2,
    ],
    [
      String.raw`\b(changelog|release notes|what['’]?s new|version history|release \d+(\.\d+)+)\b`,
      "changelog",
      2.5,
    ],
    [String.raw`\b(case study|customer story|success story)\b`, "case_study", 2.5],
    [
      String.raw`\b(webinar|conference|summit|meetup|workshop|event|veranstaltung|termine)\b`,
      "event",
      1.5,
    ],
    [String.raw`\b(integrations?|connect(or)?|plugin|add-on)\b`, "integration", 1.5],
    [
      String.raw`\b(documentation|docs|manual|handbook|user guide|reference guide|tutorial)\b`,
      "docs",
      1.5,
    ],
    [String.raw`\b(api reference|reference|sql command|function reference)\b`, "api_reference", 1],
    [
      String.raw`\b(help cent(er|re)|support|faq|frequently asked questions|troubleshoot)`,
      "support",
      1.5,
    ],
    [String.raw`\b(press release|announces?|announced|launches)\b`, "news", 1],
    [String.raw`\b(blog)\b`, "blog", 1],
    [String.raw`\b(forums?|foren|stack exchange|stack overflow)\b`, "support", 1.5],
    [String.raw`\b(wiki)\b`, "other", 2],
    [String.raw`\b(index|archive|all posts|tag:|category:)\b`, "listing", 1],
    [
      String.raw`^(the )?(list|lists|index|directory|catalog(ue)?) of\b|\b(archives?|directory|browse all|all (articles|posts|stories|products|courses|recipes))\b`,
      "listing",
      1.5,
    ],
  ],
  "i",
);

/** JSON-LD `@type` (lowercased, last path segment) → evidence. */
export const JSONLD_RULES: ReadonlyMap<string, readonly (readonly [PageType, number])[]> = new Map<
  string,
  (readonly [PageType, number])[]
>([
  ["jobposting", [["job", 5]]],
  ["product", [["product", 3]]],
  [
    "offer",
    [
      ["pricing", 1],
      ["product", 0.5],
    ],
  ],
  ["aggregateoffer", [["pricing", 1.5]]],
  ["blogposting", [["blog", 3]]],
  ["newsarticle", [["news", 3]]],
  ["reportagenewsarticle", [["news", 3]]],
  ["analysisnewsarticle", [["news", 3]]],
  ["opinionnewsarticle", [["news", 3]]],
  ["faqpage", [["support", 2]]],
  ["qapage", [["support", 2]]],
  ["discussionforumposting", [["support", 3]]],
  ["question", [["support", 2]]],
  ["itemlist", [["listing", 1]]],
  ["howto", [["docs", 2]]],
  ["techarticle", [["docs", 2.5]]],
  ["apireference", [["api_reference", 4]]],
  ["event", [["event", 4]]],
  ["educationevent", [["event", 4]]],
  ["businessevent", [["event", 4]]],
  ["aboutpage", [["about", 3]]],
  ["contactpage", [["contact", 3]]],
  ["collectionpage", [["listing", 2]]],
  ["searchresultspage", [["listing", 3]]],
  ["softwareapplication", [["product", 2]]],
]);
