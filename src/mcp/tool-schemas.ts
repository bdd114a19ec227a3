/**
 * Argument and result schemas of the MCP tools, built from the HTTP API's schemas
 * (src/schemas/params.ts, src/schemas/responses.ts) so both adapters check the same rules.
 */
import { type TObject, type TSchema, Type } from "@sinclair/typebox";
import { t } from "elysia";
import type { Config } from "../config.ts";
import { AUDIENCE_VALUES, FORMAT_VALUES, TOPIC_VALUES, TYPE_VALUES } from "../facets/vocabulary.ts";
import { fetchBody } from "../schemas/fetch.ts";
import { boolField, intField, stringField } from "../schemas/fields.ts";
import {
  bundleQuery,
  contentQuery,
  crawlBody,
  facetsQuery,
  jobIdParams,
  memberBody,
  pageIdParams,
  pageQuery,
  searchQuery,
  slugParams,
} from "../schemas/params.ts";
import {
  Applied,
  CrawlAccepted,
  Domain,
  FacetList,
  Facets,
  Job,
  listSchema,
  Member,
  Page,
  PageSummary,
  SearchResult,
  Shelf,
  ShelfWithMembers,
} from "../schemas/responses.ts";
import { toolSchema, type Vocabularies } from "./arguments.ts";
import { DEFAULT_MAX_CHARS, MAX_MAX_CHARS } from "./results.ts";

/** The comma-list parameters and the values their items may take. */
export const LISTS: Vocabularies = {
  domain: null,
  locale: null,
  type: TYPE_VALUES,
  format: FORMAT_VALUES,
  audience: AUDIENCE_VALUES,
  topics: TOPIC_VALUES,
};

const domainArg = (description: string) =>
  stringField("domain", { description, maxLength: 300, examples: ["python.org"] });

const markdownArgs = {
  max_chars: t.Optional(
    intField("max_chars", 1, MAX_MAX_CHARS, {
      default: DEFAULT_MAX_CHARS,
      description: "Most characters returned; the result says when it truncated.",
    }),
  ),
  offset: t.Optional(
    intField("offset", 0, Number.MAX_SAFE_INTEGER, {
      default: 0,
      description: "Start at this character (next_offset of a previous call).",
    }),
  ),
};

const MarkdownPart = (key: "page_id" | "domain" | "url", more: Record<string, TSchema> = {}) =>
  Type.Object({
    [key]: Type.String(),
    ...more,
    markdown: Type.String({ description: "The text from offset, at most max_chars long." }),
    offset: Type.Integer({ minimum: 0 }),
    returned_chars: Type.Integer({ minimum: 0 }),
    total_chars: Type.Integer({ minimum: 0, description: "Length of the whole document." }),
    truncated: Type.Boolean({ description: "True when the document goes on past this part." }),
    next_offset: Type.Union([Type.Integer(), Type.Null()], {
      description: "Offset of the next part; null when complete.",
    }),
  });

/** An MCP-only switch from the compact text answer to more of the record. */
const moreArg = (name: string, description: string) =>
  t.Optional(boolField(name, { default: false, description }));

/** The list arguments of a single-domain tool: its `domain` is one domain, not a list. */
const { domain: _one, ...BUNDLE_LISTS } = LISTS;

export function toolSchemas(config: Config) {
  const args = {
    search: toolSchema(searchQuery(config), LISTS),
    list_content: toolSchema(contentQuery(config), LISTS),
    get_page: toolSchema(t.Object({ ...pageIdParams.properties, ...pageQuery.properties })),
    get_page_markdown: toolSchema(t.Object({ ...pageIdParams.properties, ...markdownArgs })),
    get_domain: toolSchema(
      t.Object({
        domain: domainArg("A root domain; a subdomain names its company."),
        full: moreArg("full", "true: all of it, as JSON."),
      }),
    ),
    get_domain_markdown: toolSchema(
      t.Object({
        domain: domainArg("The company's root domain."),
        ...bundleQuery(config).properties,
        ...markdownArgs,
      }),
      BUNDLE_LISTS,
    ),
    list_collections: t.Object({}),
    get_collection: toolSchema(slugParams),
    get_job: toolSchema(
      t.Object({
        ...jobIdParams.properties,
        full: moreArg("full", "true: all of it, as JSON."),
      }),
    ),
    list_facets: toolSchema(
      t.Object({
        ...facetsQuery.properties,
        definitions: moreArg("definitions", "true: define each value."),
      }),
      LISTS,
    ),
    start_crawl: toolSchema(crawlBody(config)),
    read_url: toolSchema(t.Object({ url: fetchBody.properties.url, ...markdownArgs })),
    place_on_shelf: toolSchema(
      t.Object({
        collection: stringField("collection", {
          where: "field",
          description: "The shelf's slug (list_collections).",
          maxLength: 63,
        }),
        domain: memberBody.properties.domain,
        reason: memberBody.properties.reason,
        shelf_name: t.Optional(
          stringField("shelf_name", {
            where: "field",
            description: "Name of a new shelf.",
            maxLength: 200,
          }),
        ),
      }),
    ),
  } satisfies Record<string, TObject>;
  const results = {
    search: SearchResult,
    list_content: listSchema(PageSummary, "Pages matching the filters", Applied.content),
    get_page: Page,
    get_page_markdown: MarkdownPart("page_id"),
    get_domain: Domain,
    get_domain_markdown: MarkdownPart("domain"),
    list_collections: listSchema(Shelf, "Every shelf"),
    get_collection: ShelfWithMembers,
    get_job: Job,
    list_facets: FacetList,
    start_crawl: CrawlAccepted,
    read_url: MarkdownPart("url", {
      title: Type.Union([Type.String(), Type.Null()]),
      facets: Facets,
    }),
    place_on_shelf: Type.Composite([Member, Type.Object({ created: Type.Boolean() })]),
  } satisfies Record<keyof typeof args, TSchema>;
  return { args, results };
}

/**
 * The result fields a tool's published output schema names (src/mcp/published-schemas.ts): the
 * ones a client reads; the others are still in the structured content, and every field is in
 * the OpenAPI document's schema of the HTTP twin.
 */
export const OUTPUT_FIELDS = {
  search: ["data", "query"],
  list_content: ["data", "total"],
  get_page: ["id", "url", "facets"],
  get_page_markdown: ["markdown", "truncated"],
  get_domain: ["domain", "coverage", "health"],
  get_domain_markdown: ["markdown", "truncated"],
  list_collections: ["data", "total"],
  get_collection: ["slug", "members"],
  get_job: ["state", "progress", "coverage"],
  list_facets: ["data", "pages"],
  start_crawl: ["job_id", "state"],
  read_url: ["markdown", "truncated"],
  place_on_shelf: ["domain", "placed_by", "created"],
} as const satisfies Record<string, readonly string[]>;
