/** Response schemas of the contract (CONTRACT.md), for the OpenAPI document and response checks. */

import { Type } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";
import { BUCKETS } from "../crawl/buckets.ts";
import { RENDER_MODES } from "../crawl/render/detector.ts";
import { JOB_STATES, PLACED_BY } from "../db/schema.ts";
import { PROBLEMS } from "../services/errors.ts";
import { JOB_PHASES } from "../services/job-progress.ts";
import { pageExample, pageSummaryExample, searchExample } from "./examples.ts";
import { Applied, filtersSchema, listSchema } from "./lists.ts";

const nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);
const time = (description?: string) =>
  t.String({ format: "date-time", ...(description ? { description } : {}) });

/** A new Problem schema object each call (Elysia's model registry writes `$id` onto its own). */
export const problemSchema = () =>
  t.Object(
    {
      type: t.String({ examples: ["urn:webcorpus:error:invalid_parameter"] }),
      title: t.String(),
      status: Type.Integer(),
      detail: t.String(),
      code: t.UnionEnum(Object.keys(PROBLEMS) as [string, ...string[]]),
      errors: t.Optional(
        t.Array(
          t.Object({
            param: t.Optional(t.String()),
            field: t.Optional(t.String()),
            message: t.String(),
          }),
        ),
      ),
    },
    {
      additionalProperties: true,
      description: "RFC 9457 problem details (application/problem+json).",
    },
  );

export const Problem = problemSchema();

export { Applied, filtersSchema, listSchema };

const score = () => t.Number({ minimum: 0, maximum: 1 });

export const Facets = t.Object({
  type: t.String(),
  format: t.String(),
  audience: t.String(),
  locale: nullable(t.String()),
  topics: t.Array(t.String()),
  technicality: score(),
  depth: score(),
  originality: score(),
  promotional: score(),
  has_code: t.Boolean(),
  words: Type.Integer(),
  published: nullable(t.String({ format: "date" })),
});

export const PageSummary = t.Object(
  {
    id: t.String({ examples: ["pg_0123456789abcdef"] }),
    url: t.String(),
    canonical_url: nullable(t.String()),
    title: nullable(t.String()),
    domain: t.String(),
    description: nullable(t.String()),
    facets: Facets,
    metrics: t.Object({ inlinks_body: Type.Integer() }),
    fetched_at: time(),
    indexed_at: time(),
  },
  { examples: [pageSummaryExample] },
);

export const Page = t.Object(
  {
    id: t.String(),
    url: t.String(),
    canonical_url: nullable(t.String()),
    title: nullable(t.String()),
    description: nullable(t.String()),
    domain: t.String(),
    collections: t.Array(t.String()),
    facets: Facets,
    metrics: t.Object({ inlinks_body: Type.Integer() }),
    markdown: t.Optional(t.String()),
    explain: t.Optional(
      t.Record(t.String(), t.Array(t.String()), {
        description: "Per facet, the signals behind its value (explain=true).",
        examples: [{ type: ["path /docs/"], has_code: ["2 code blocks"] }],
      }),
    ),
    fetched_at: time(),
    indexed_at: time(),
    hreflang: t.Array(t.Object({ hreflang: t.String(), url: t.String() }), {
      description: "Alternates in other languages declared by the page.",
    }),
    assets: t.Array(t.Object({ url: t.String(), kind: t.String(), alt: t.String() })),
    screenshots: t.Array(
      t.Object({
        url: t.String(),
        width: Type.Integer(),
        height: Type.Integer(),
        taken_at: time(),
      }),
    ),
    history: t.Array(
      t.Object({
        fetched_at: time(),
        status: Type.Integer(),
        content_hash: nullable(t.String()),
        changed: t.Boolean(),
        job_id: nullable(t.String()),
      }),
    ),
    cited_by: t.Array(
      t.Object({
        id: t.String(),
        url: t.String(),
        title: nullable(t.String()),
        anchor_text: t.String(),
      }),
    ),
  },
  { examples: [pageExample] },
);

export const SearchHit = t.Object({
  chunk_id: t.String(),
  page_id: t.String(),
  url: t.String(),
  title: nullable(t.String()),
  domain: t.String(),
  heading: t.String({ examples: ["Install > Linux"] }),
  text: t.String(),
  score: t.Number(),
  ranks: t.Object(
    { text: t.Optional(Type.Integer()), vector: t.Optional(Type.Integer()) },
    { description: "The chunk's rank in each engine that found it (1 = first)." },
  ),
});

/** Said while the search index of a domain in scope is rebuilding (search-service.ts). */
export const PartialAnswer = t.Object(
  {
    reason: t.String(),
    domains: t.Array(
      t.Object({
        domain: t.String(),
        status: t.String({
          examples: [
            "search index corrupt, rebuilding from the database: 1200 of 3,370 pages back",
          ],
        }),
      }),
    ),
  },
  {
    description:
      "Present only while the search index of a domain in scope is being rebuilt from the database: its pages may be missing from the hits until then.",
  },
);

export const SearchResult = t.Object(
  {
    data: t.Array(SearchHit),
    query: t.String(),
    mode: t.String(),
    limit: Type.Integer(),
    filters: filtersSchema(Applied.search),
    partial: t.Optional(PartialAnswer),
  },
  { examples: [searchExample] },
);

const FacetValue = t.Object({
  value: t.Union([t.String(), t.Boolean()], { examples: ["docs"] }),
  pages: Type.Integer({ minimum: 0, description: "Pages with this value (in scope)." }),
  definition: t.Optional(t.String()),
});

export const Facet = t.Object({
  facet: t.String({ examples: ["type"] }),
  param: t.String({ description: "The filter parameter taking its values.", examples: ["type"] }),
  kind: t.UnionEnum(["vocabulary", "tags", "boolean", "score", "integer", "date"]),
  definition: t.Optional(t.String()),
  values: t.Optional(t.Array(FacetValue)),
  range: t.Optional(t.Array(t.Number(), { minItems: 2, maxItems: 2 })),
});

export const FacetList = t.Composite([
  listSchema(Facet, "Every facet with its values and page counts", Applied.facets),
  t.Object({ pages: Type.Integer({ minimum: 0, description: "Pages in scope." }) }),
]);

const BucketView = t.Object({
  count: Type.Integer(),
  reason: t.String(),
  sample: t.Array(t.String()),
  reasons: t.Optional(t.Array(t.Object({ reason: t.String(), count: Type.Integer() }))),
});

const bucketNames = [...BUCKETS, "unaccounted"] as const;

export const JobParams = t.Object({
  budget: Type.Integer(),
  refresh: t.Boolean(),
  force: t.Boolean(),
  shots: Type.Integer(),
  scope: t.Optional(t.String({ description: '"host" or a URL prefix; absent: the domain.' })),
  include: t.Optional(t.Array(t.String())),
  exclude: t.Optional(t.Array(t.String())),
  start: t.Optional(t.Array(t.String())),
  render: t.Optional(t.UnionEnum(RENDER_MODES, { description: 'Absent: "auto".' })),
});

const jobFields = {
  id: t.String({ examples: ["job_019cc2b3e4f1a2b3c4d5"] }),
  domain: t.String(),
  state: t.UnionEnum(JOB_STATES),
  params: JobParams,
  created_at: time(),
  started_at: nullable(time()),
  finished_at: nullable(time()),
  progress: t.Object({
    indexed: Type.Integer(),
    pending: Type.Integer(),
    discovered: Type.Integer(),
    fetched: Type.Integer(),
    elapsed_s: t.Number(),
    pages_per_min: t.Number({
      description: "The fetch rate: pages fetched per minute of the job's fetching phase.",
    }),
    eta: nullable(
      t.Object(
        { low_s: t.Number(), high_s: t.Number(), confidence: t.Number() },
        {
          description:
            "Seconds until the job is final: the later of its fetching and its embedding (its chunks' vectors). Null while queued, or while no rate is known yet.",
        },
      ),
    ),
    embedding_backlog: nullable(
      Type.Integer({ description: "Chunks of this job still waiting for vectors." }),
    ),
    phase: t.UnionEnum(JOB_PHASES, {
      description:
        "`fetching` (pages fetched and stored, searchable by text at once), `embedding` (fetching is over, chunks still wait for vectors; the domain already takes a new crawl), `done` (final state); `queued` before it starts.",
    }),
    embedded_chunks: nullable(
      Type.Integer({ description: "Chunks of this job that have their vectors." }),
    ),
    chunks_per_s: nullable(
      t.Number({ description: "Chunks of this job embedded per second, over the job's life." }),
    ),
    searchable: nullable(
      Type.Integer({
        description: "Pages stored by this job with every chunk embedded (searchable by vector).",
      }),
    ),
    searchable_per_min: nullable(
      t.Number({ description: "The rate at which the job's pages became searchable by vector." }),
    ),
  }),
  cancel_requested: t.Boolean(),
  resumes: Type.Integer(),
  error: nullable(t.String()),
  render: t.Optional(
    t.Object(
      {
        mode: t.UnionEnum(RENDER_MODES),
        rendered: Type.Integer({ minimum: 0, description: "Pages rendered in Chromium." }),
        gained: Type.Integer({ minimum: 0, description: "Rendered pages whose text grew by it." }),
        render_ms: Type.Integer({ minimum: 0, description: "Wall milliseconds spent rendering." }),
        failed: t.Array(t.Object({ url: t.String(), reason: t.String() }), {
          description: "Renders that failed (the first 20); those pages are kept as fetched.",
        }),
        refused: t.Array(t.Object({ page: t.String(), url: t.String(), reason: t.String() }), {
          description:
            "Requests of rendered pages the crawler's fetcher refused (SSRF guard, robots.txt) or could not make (the first 20).",
        }),
        refused_total: Type.Integer({ minimum: 0 }),
        error: t.Optional(
          t.String({ description: "Why no browser could render (missing, died)." }),
        ),
      },
      { description: "The render mode of the job and what its rendering did." },
    ),
  ),
  screenshots: t.Optional(
    t.Object(
      {
        requested: Type.Integer({ minimum: 0 }),
        taken: Type.Integer({ minimum: 0 }),
        failed: t.Array(t.Object({ url: t.String(), reason: t.String() })),
        error: t.Optional(t.String()),
      },
      { description: "What became of the screenshots the crawl asked for (shots > 0)." },
    ),
  ),
};

export const Job = t.Object({
  ...jobFields,
  coverage: t.Object({
    total: Type.Integer({ description: "The sum of the buckets." }),
    buckets: t.Object(Object.fromEntries(bucketNames.map((name) => [name, BucketView]))),
  }),
});

export const JobSummary = t.Object(jobFields);

export const JobUrl = t.Object({
  url: t.String(),
  bucket: t.String(),
  reason: nullable(t.String()),
  depth: Type.Integer(),
  source: t.String(),
  page_id: nullable(t.String()),
  http_status: nullable(Type.Integer()),
  target: nullable(t.String()),
});

export const CrawlAccepted = t.Object({
  job_id: t.String(),
  state: t.Literal("queued"),
  domain: t.String(),
});

export { Domain } from "./domain.ts";

export const Shelf = t.Object({
  slug: t.String(),
  name: t.String(),
  description: t.String(),
  companies: Type.Integer(),
  crawled: Type.Integer(),
  created_at: time(),
});

export const Member = t.Object({
  domain: t.String(),
  reason: t.String(),
  placed_by: t.UnionEnum(PLACED_BY),
  placed_at: time(),
  crawled: t.Boolean(),
  pages: Type.Integer(),
});

export const ShelfWithMembers = t.Object({ ...Shelf.properties, members: t.Array(Member) });

export const Markdown = t.String({ description: "text/markdown; charset=utf-8" });

/** A JSON-RPC 2.0 answer of the MCP endpoint (its `result` is one of the MCP specification's). */
export const JsonRpcAnswer = t.Object(
  {
    jsonrpc: t.Literal("2.0"),
    id: t.Union([t.String(), t.Number(), t.Null()]),
    result: t.Optional(
      t.Object({}, { additionalProperties: true, description: "An MCP result object." }),
    ),
    error: t.Optional(
      t.Object({ code: Type.Integer(), message: t.String(), data: t.Optional(t.Unknown()) }),
    ),
  },
  { description: "A JSON-RPC 2.0 response (or a batch of them) of the MCP protocol." },
);

/** What the MCP transport answers for a request it refuses (not a problem document). */
export const JsonRpcError = t.Object({
  jsonrpc: t.Literal("2.0"),
  error: t.Object({ code: Type.Integer(), message: t.String() }),
  id: t.Null(),
});
