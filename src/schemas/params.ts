/**
 * Query, path and body schemas of every endpoint, built from the configuration (limits are
 * settings). They are the single source of validation and of the OpenAPI document; the MCP tools
 * take the same schemas as their input.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import type { Config } from "../config.ts";
import { BUCKETS } from "../crawl/buckets.ts";
import { RENDER_MODES } from "../crawl/render/detector.ts";
import { MAX_PATTERN_LENGTH, MAX_PATTERNS, MAX_START_URLS } from "../crawl/scope.ts";
import { JOB_STATES, PLACED_BY } from "../db/schema.ts";
import { AUDIENCE_VALUES, FORMAT_VALUES, TOPIC_VALUES, TYPE_VALUES } from "../facets/vocabulary.ts";
import { boolField, enumField, intField, listField, scoreField, stringField } from "./fields.ts";

export const MAX_OFFSET = 10_000;

export const CONTENT_SORTS = [
  "relevance",
  "cited",
  "published",
  "words",
  "technicality",
  "depth",
  "originality",
  "promotional",
  "indexed",
] as const;
export type ContentSort = (typeof CONTENT_SORTS)[number];

export const SEARCH_MODES = ["hybrid", "vector", "text"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

const opt = t.Optional;

const PAGE_SIZE = "Most items returned (one page of the list).";
const SKIPPED = "Items skipped before the first returned (paging).";

const domainFilter = () =>
  listField("domain", "Root domains (example.com); pages of these companies.");
const collectionFilter = () =>
  stringField("collection", {
    description: "A shelf's slug: pages of the companies on it.",
    maxLength: 63,
  });
const localeFilter = () => listField("locale", "BCP 47 tags; `de` matches de, de-DE and de-AT.");
const typeFilter = () => listField("type", "Page types.", TYPE_VALUES);
const topicsFilter = () => listField("topics", "Topics.", TOPIC_VALUES);
const technicalityMin = () =>
  scoreField("technicality_min", "Technicality at least this (0 lay reader .. 1 specialist).");

export function qField(config: Config, description: string) {
  return stringField("q", { description, minLength: 1, maxLength: config.maxQChars });
}

export function contentQuery(config: Config) {
  return t.Object({
    q: opt(qField(config, "Full-text query over title and body; enables sort=relevance.")),
    domain: opt(domainFilter()),
    collection: opt(collectionFilter()),
    type: opt(typeFilter()),
    format: opt(listField("format", "Page formats.", FORMAT_VALUES)),
    audience: opt(listField("audience", "Audiences.", AUDIENCE_VALUES)),
    locale: opt(localeFilter()),
    topics: opt(topicsFilter()),
    technicality_min: opt(technicalityMin()),
    depth_min: opt(scoreField("depth_min", "Depth at least this (0 thin .. 1 substantive).")),
    originality_min: opt(
      scoreField("originality_min", "Originality at least this (0 duplicated .. 1 unique)."),
    ),
    promotional_max: opt(
      scoreField("promotional_max", "Promotional at most this (0 neutral .. 1 sales copy)."),
    ),
    has_code: opt(boolField("has_code", { description: "Pages with (true) or without code." })),
    words_min: opt(
      intField("words_min", 0, Number.MAX_SAFE_INTEGER, {
        description: "Word count at least this.",
      }),
    ),
    published_after: opt(
      stringField("published_after", {
        description: "A date (YYYY-MM-DD) or RFC 3339 time: published strictly after it.",
        maxLength: 64,
      }),
    ),
    sort: opt(
      enumField("sort", CONTENT_SORTS, {
        description:
          "Default relevance with q, else cited. Highest/newest first; promotional: least first. Ties break on page id.",
      }),
    ),
    limit: opt(intField("limit", 1, config.contentLimit, { default: 20, description: PAGE_SIZE })),
    offset: opt(intField("offset", 0, MAX_OFFSET, { default: 0, description: SKIPPED })),
  });
}

export const pageIdParams = t.Object({
  page_id: stringField("page_id", {
    description: "pg_ and 16 hex digits (the prefix may be left out).",
    maxLength: 64,
  }),
});

export const pageQuery = t.Object({
  markdown: opt(boolField("markdown", { description: "false omits the body.", default: true })),
  explain: opt(boolField("explain", { description: "true adds the signals behind each facet." })),
});

export function searchQuery(config: Config) {
  return t.Object({
    q: qField(config, "The query text."),
    mode: opt(
      enumField("mode", SEARCH_MODES, {
        default: "hybrid",
        description:
          "hybrid fuses the vector and full-text rankings; vector or text asks one engine. With embeddings off, hybrid answers from text alone and vector is a 400.",
      }),
    ),
    domain: opt(domainFilter()),
    collection: opt(collectionFilter()),
    locale: opt(localeFilter()),
    type: opt(typeFilter()),
    topics: opt(topicsFilter()),
    technicality_min: opt(technicalityMin()),
    limit: opt(
      intField("limit", 1, config.searchLimit, { default: 10, description: "Most hits returned." }),
    ),
  });
}

export const facetsQuery = t.Object({
  domain: opt(domainFilter()),
  collection: opt(collectionFilter()),
});

export const domainParams = t.Object({
  root_domain: stringField("root_domain", {
    description: "A root domain such as example.com.",
    maxLength: 300,
  }),
});

export function bundleQuery(config: Config) {
  return t.Object({
    limit: opt(
      intField("limit", 1, config.bundleLimit, {
        default: 100,
        description: "Most pages in the bundle, most cited first.",
      }),
    ),
    type: opt(typeFilter()),
    technicality_min: opt(technicalityMin()),
  });
}

export const slugParams = t.Object({
  slug: stringField("slug", {
    description: "1-63 letters, digits or hyphens, not starting with a hyphen.",
    maxLength: 63,
  }),
});

export const memberParams = t.Object({
  slug: slugParams.properties.slug,
  domain: stringField("domain", { description: "A root domain.", maxLength: 300 }),
});

export const jobIdParams = t.Object({
  job_id: stringField("job_id", {
    description: "job_ and its id (the prefix may be left out).",
    maxLength: 64,
  }),
});

export const jobsQuery = t.Object({
  domain: opt(stringField("domain", { description: "One root domain.", maxLength: 300 })),
  state: opt(enumField("state", JOB_STATES, { description: "Jobs in this state." })),
  limit: opt(intField("limit", 1, 100, { default: 20, description: PAGE_SIZE })),
  offset: opt(intField("offset", 0, MAX_OFFSET, { default: 0, description: SKIPPED })),
});

export const jobUrlsQuery = t.Object({
  bucket: opt(
    enumField("bucket", [...BUCKETS, "unaccounted"] as const, {
      description: "URLs in this coverage bucket (GET /api/jobs/{job_id} says what each means).",
    }),
  ),
  limit: opt(intField("limit", 1, 1000, { default: 100, description: PAGE_SIZE })),
  offset: opt(intField("offset", 0, Number.MAX_SAFE_INTEGER, { default: 0, description: SKIPPED })),
});

const patternList = (name: string, description: string) =>
  t.Array(stringField(name, { where: "field", maxLength: MAX_PATTERN_LENGTH }), {
    "x-field": name,
    maxItems: MAX_PATTERNS,
    error: `must be a list of at most ${MAX_PATTERNS} patterns of at most ${MAX_PATTERN_LENGTH} characters`,
    description,
    examples: [name === "exclude" ? ["**/genindex*"] : ["/blog/**"]],
  });

export function crawlBody(config: Config) {
  return t.Object({
    domain: stringField("domain", {
      where: "field",
      description:
        "The root domain, e.g. example.com (a subdomain is crawled from its registrable domain). Scheme, path, IP literals and non-public suffixes are refused.",
      examples: ["example.com"],
      maxLength: 300,
    }),
    budget: opt(
      intField("budget", 1, config.maxBudget, {
        where: "field",
        default: config.defaultBudget,
        description: "Most pages fetched by this job.",
      }),
    ),
    refresh: opt(
      boolField("refresh", {
        where: "field",
        default: false,
        description: "Re-fetch pages already indexed, with conditional requests.",
      }),
    ),
    force: opt(
      boolField("force", {
        where: "field",
        default: false,
        description:
          "Fetch unconditionally and re-index unchanged pages; start even if the domain was crawled recently.",
      }),
    ),
    shots: opt(
      t.Union([Type.Integer({ minimum: 0, maximum: config.maxBudget }), t.Boolean()], {
        "x-field": "shots",
        default: 0,
        error: "must be true, false or an integer of 0 or more",
        description:
          "Screenshot up to this many pages (true = 10), homepage and most cited first; capped at budget.",
      }),
    ),
    scope: opt(
      stringField("scope", {
        where: "field",
        maxLength: 2000,
        description:
          'What to crawl: "domain" (the registrable domain and its subdomains; the default), "host" (only the host the crawl starts on) or a URL prefix (https://docs.python.org/3/: only URLs under it). URLs of the domain outside it are booked `filtered` ("outside scope: …").',
        examples: ["domain", "host", "https://docs.python.org/3/"],
      }),
    ),
    include: opt(
      patternList(
        "include",
        "Glob patterns over the URL path (and query): with any, a URL must match one. `*` within a segment, `**` across segments; a pattern not starting with / matches at any depth.",
      ),
    ),
    exclude: opt(
      patternList(
        "exclude",
        'Glob patterns over the URL path (and query): a matching URL is booked `filtered` ("excluded by pattern …"), e.g. **/genindex*.',
      ),
    ),
    start: opt(
      t.Array(stringField("start", { where: "field", maxLength: 2000 }), {
        "x-field": "start",
        maxItems: MAX_START_URLS,
        error: `must be a list of at most ${MAX_START_URLS} URLs`,
        description:
          "Start URLs inside the scope, fetched first whatever the patterns say (default: the home page, or the scope's prefix).",
        examples: [["https://docs.python.org/3/library/"]],
      }),
    ),
    render: opt(
      enumField("render", RENDER_MODES, {
        where: "field",
        default: "auto",
        description:
          'Render pages in Chromium: "auto" renders only pages whose static HTML lacks the content a script puts there (an empty app shell, scripts outweighing the text), "always" every page, "never" none. The browser\'s requests go through the crawler\'s fetcher (SSRF guard, robots.txt, pacing).',
      }),
    ),
  });
}

export const shelfBody = t.Object({
  name: stringField("name", {
    where: "field",
    minLength: 1,
    maxLength: 200,
    description: "The shelf's name: one line, no tabs, newlines or control characters.",
  }),
  description: opt(
    stringField("description", {
      where: "field",
      maxLength: 2000,
      description: "What the shelf gathers: one line, no tabs, newlines or control characters.",
    }),
  ),
});

export const memberBody = t.Object({
  domain: stringField("domain", { where: "field", maxLength: 300, examples: ["example.com"] }),
  reason: opt(stringField("reason", { where: "field", maxLength: 2000 })),
  placed_by: opt(enumField("placed_by", PLACED_BY, { where: "field", default: "person" })),
});
