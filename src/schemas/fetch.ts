/**
 * POST /api/fetch (and the MCP tool `read_url`): its body, its answer and their examples.
 */
import { Type } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";
import { MAX_URL_CHARS } from "../services/fetch-service.ts";
import { pageSummaryExample } from "./examples.ts";
import { boolField, stringField } from "./fields.ts";
import { Facets } from "./responses.ts";

const nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);

export const fetchBody = t.Object({
  url: stringField("url", {
    where: "field",
    description:
      "An absolute http(s) URL of a public page. Fetched as the crawler fetches (SSRF guard, robots.txt, body cap).",
    examples: ["https://www.postgresql.org/docs/15/sql-createindex.html"],
    maxLength: MAX_URL_CHARS,
  }),
  store: t.Optional(
    boolField("store", {
      where: "field",
      default: false,
      description:
        "Store the page in the corpus too: a one-URL crawl job (no sitemaps, no links followed) fetches it again through the crawler and stores it; `job_id` names the job. 409 while the domain has a crawl under way.",
    }),
  ),
});

export const fetchedExample = {
  id: pageSummaryExample.id,
  url: pageSummaryExample.url,
  canonical_url: pageSummaryExample.canonical_url,
  title: pageSummaryExample.title,
  description: pageSummaryExample.description,
  domain: pageSummaryExample.domain,
  facets: pageSummaryExample.facets,
  markdown: "# CREATE INDEX\n\n## Synopsis\n\n```sql\nCREATE INDEX name ON table (column);\n```",
  chunks: { count: 2, tokens: 412, headings: ["CREATE INDEX", "CREATE INDEX > Synopsis"] },
  fetched_at: "2026-11-25T21:49:11.000Z",
  stored: false,
  job_id: null,
};

export const fetchedMarkdownExample = `---
id: ${fetchedExample.id}
url: ${fetchedExample.url}
canonical_url: ${fetchedExample.canonical_url}
title: CREATE INDEX
domain: postgresql.org
locale: en-US
type: docs
published: 2026-03-02
fetched_at: 2026-11-25T21:49:11.000Z
words: 1840
---

${fetchedExample.markdown}
`;

export const FetchedPage = t.Object(
  {
    id: t.String({ description: "The id the page would have in the corpus." }),
    url: t.String({ description: "The URL fetched, after redirects, normalized." }),
    canonical_url: nullable(t.String()),
    title: nullable(t.String()),
    description: nullable(t.String()),
    domain: t.String(),
    facets: Facets,
    markdown: t.String(),
    chunks: t.Object(
      {
        count: Type.Integer({ minimum: 0 }),
        tokens: Type.Integer({ minimum: 0 }),
        headings: t.Array(t.String()),
      },
      { description: "The chunks search would index: how many, their word pieces, headings." },
    ),
    fetched_at: t.String({ format: "date-time" }),
    stored: t.Boolean({
      description:
        "Whether the corpus holds the page now (a crawl stored it before; with `store: true`, false until its job stores it).",
    }),
    job_id: nullable(
      t.String({
        description:
          "With `store: true`: the job storing the page (GET /api/jobs/{id}; searchable once it completes). Null otherwise.",
      }),
    ),
  },
  { examples: [fetchedExample] },
);
