/** Response schemas of the contract (CONTRACT.md), for the OpenAPI document and response checks. */
import { type TSchema, t } from "elysia";
import { BUCKETS } from "../crawl/buckets.ts";
import { JOB_STATES, PLACED_BY } from "../db/schema.ts";
import { PROBLEMS } from "../services/errors.ts";

const nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);
const time = (description?: string) =>
  t.String({ format: "date-time", ...(description ? { description } : {}) });

export const Problem = t.Object(
  {
    type: t.String({ examples: ["urn:webcorpus:error:invalid_parameter"] }),
    title: t.String(),
    status: t.Integer(),
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

export const Filters = t.Object({
  applied: t.Record(t.String(), t.Unknown(), {
    description: "Every filter the query used, with its normalized value.",
  }),
  unrecognized: t.Array(t.String(), {
    description: "Query parameters this endpoint does not know (listed, not applied).",
  }),
});

export function envelope<T extends TSchema>(item: T, description: string) {
  return t.Object(
    {
      data: t.Array(item),
      total: t.Integer({ description: "All matches." }),
      limit: t.Integer(),
      offset: t.Integer(),
      sort: t.Optional(t.String()),
      filters: Filters,
    },
    { description },
  );
}

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
  words: t.Integer(),
  published: nullable(t.String({ format: "date" })),
});

export const PageSummary = t.Object({
  id: t.String({ examples: ["pg_0123456789abcdef"] }),
  url: t.String(),
  canonical_url: nullable(t.String()),
  title: nullable(t.String()),
  domain: t.String(),
  description: nullable(t.String()),
  facets: Facets,
  metrics: t.Object({ inlinks_body: t.Integer() }),
  fetched_at: time(),
  indexed_at: time(),
});

export const Page = t.Object({
  id: t.String(),
  url: t.String(),
  canonical_url: nullable(t.String()),
  title: nullable(t.String()),
  description: nullable(t.String()),
  domain: t.String(),
  collections: t.Array(t.String()),
  facets: Facets,
  metrics: t.Object({ inlinks_body: t.Integer() }),
  markdown: t.Optional(t.String()),
  explain: t.Optional(t.Record(t.String(), t.Unknown())),
  fetched_at: time(),
  indexed_at: time(),
  hreflang: t.Array(t.Object({ hreflang: t.String(), url: t.String() }), {
    description: "Alternates in other languages declared by the page.",
  }),
  assets: t.Array(t.Object({ url: t.String(), kind: t.String(), alt: t.String() })),
  screenshots: t.Array(
    t.Object({ url: t.String(), width: t.Integer(), height: t.Integer(), taken_at: time() }),
  ),
  history: t.Array(
    t.Object({
      fetched_at: time(),
      status: t.Integer(),
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
});

export const SearchHit = t.Object({
  chunk_id: t.String(),
  page_id: t.String(),
  url: t.String(),
  title: nullable(t.String()),
  domain: t.String(),
  heading: t.String({ examples: ["Install > Linux"] }),
  text: t.String(),
  score: t.Number(),
  ranks: t.Object({ text: nullable(t.Integer()), vector: nullable(t.Integer()) }),
});

export const SearchResult = t.Object({
  data: t.Array(SearchHit),
  query: t.String(),
  mode: t.String(),
  limit: t.Integer(),
  filters: Filters,
});

export const FacetCounts = t.Object({
  facets: t.Record(
    t.String(),
    t.Array(
      t.Object({ value: t.Unknown(), count: t.Integer(), description: t.Optional(t.String()) }),
    ),
  ),
  total: t.Integer({ description: "Pages matched by the filters." }),
  filters: Filters,
});

const BucketView = t.Object({
  count: t.Integer(),
  reason: t.String(),
  sample: t.Array(t.String()),
  reasons: t.Optional(t.Array(t.Object({ reason: t.String(), count: t.Integer() }))),
});

const bucketNames = [...BUCKETS, "unaccounted"] as const;

export const JobParams = t.Object({
  budget: t.Integer(),
  refresh: t.Boolean(),
  force: t.Boolean(),
  shots: t.Integer(),
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
    indexed: t.Integer(),
    pending: t.Integer(),
    discovered: t.Integer(),
    fetched: t.Integer(),
    elapsed_s: t.Number(),
    pages_per_min: t.Number(),
    eta: nullable(t.Object({ low_s: t.Number(), high_s: t.Number(), confidence: t.Number() })),
    embedding_backlog: nullable(t.Integer()),
  }),
  cancel_requested: t.Boolean(),
  resumes: t.Integer(),
  error: nullable(t.String()),
  screenshots: t.Optional(t.Record(t.String(), t.Unknown())),
};

export const Job = t.Object({
  ...jobFields,
  coverage: t.Object({
    total: t.Integer({ description: "The sum of the buckets." }),
    buckets: t.Object(Object.fromEntries(bucketNames.map((name) => [name, BucketView]))),
  }),
});

export const JobSummary = t.Object(jobFields);

export const JobUrl = t.Object({
  url: t.String(),
  bucket: t.String(),
  reason: nullable(t.String()),
  depth: t.Integer(),
  source: t.String(),
  page_id: nullable(t.String()),
  http_status: nullable(t.Integer()),
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
  companies: t.Integer(),
  crawled: t.Integer(),
  created_at: time(),
});

export const Member = t.Object({
  domain: t.String(),
  reason: t.String(),
  placed_by: t.UnionEnum(PLACED_BY),
  placed_at: time(),
  crawled: t.Boolean(),
  pages: t.Integer(),
});

export const ShelfWithMembers = t.Object({ ...Shelf.properties, members: t.Array(Member) });

export const Markdown = t.String({ description: "text/markdown; charset=utf-8" });
