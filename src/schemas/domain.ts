/** Response schema of the domain record (`GET /api/domains/{root_domain}`, MCP `get_domain`). */
import { Type } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";
import { BUCKETS } from "../crawl/buckets.ts";
import { RENDER_MODES } from "../crawl/render/detector.ts";
import { JOB_STATES } from "../db/schema.ts";
import { domainExample } from "./examples.ts";

const nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);
const time = () => t.String({ format: "date-time" });
const count = (description?: string) =>
  Type.Integer({ minimum: 0, ...(description ? { description } : {}) });
const interval = () => t.Array(t.Number({ minimum: 0, maximum: 1 }), { minItems: 2, maxItems: 2 });

export const PageEstimate = t.Object(
  {
    low: count(),
    high: count(),
    confidence: t.Number({ minimum: 0, maximum: 1 }),
    method: t.String({
      examples: [
        "confirmed pages; frontier x Wilson yield; sitemap/link capture-recapture (Chapman)",
      ],
    }),
    scope: t.String({
      description: "What the estimate counts: the latest job's scope and patterns.",
      examples: ["https://docs.python.org/3/ excluding **/genindex*"],
    }),
  },
  {
    description:
      "The site's total public pages: a range with a confidence, never a single number. Confirmed pages, plus the unfetched frontier times the yield of resolved URLs of its kind (Wilson interval), plus URLs nobody has seen yet by capture-recapture (Chapman on sitemap and link captures; Chao2 on link incidences without a sitemap).",
  },
);

export const EstimateEvidence = t.Object({
  confirmed_pages: count(),
  frontier_urls: count(),
  sitemap_urls: count(),
  linked_urls: count(),
  sitemap_and_linked: count(),
  yield_sitemap: interval(),
  yield_other: interval(),
  yield_files: interval(),
  url_population: nullable(
    t.Object({
      method: t.UnionEnum(["chapman", "chao2"]),
      urls: count(),
      low: count(),
      high: count(),
    }),
  ),
  new_urls_per_page_recent: nullable(t.Number({ minimum: 0 })),
  corpus_pages: count(),
});

const bucketNames = [...BUCKETS, "unaccounted"] as const;

const Coverage = t.Object({
  known: count("URLs the latest job knows (its ledger), or the stored pages without a job."),
  indexed: count("Pages of the domain in the corpus."),
  job_id: nullable(t.String()),
  job_state: nullable(t.UnionEnum(JOB_STATES)),
  scope: nullable(
    t.Object(
      {
        kind: t.UnionEnum(["domain", "host", "prefix"]),
        covers: t.String({
          description: "The domain (with subdomains), the host or the URL prefix.",
        }),
        include: t.Array(t.String()),
        exclude: t.Array(t.String()),
        label: t.String({ examples: ["https://docs.python.org/3/ excluding **/genindex*"] }),
      },
      {
        description:
          "What the latest job covered (its buckets and the estimate count only URLs in it): crawl body `scope`, `include`, `exclude`.",
      },
    ),
  ),
  buckets: nullable(
    t.Object(Object.fromEntries(bucketNames.map((name) => [name, count()])), {
      description: "URLs per coverage bucket of the latest job.",
    }),
  ),
  estimate: nullable(PageEstimate),
  evidence: nullable(EstimateEvidence),
});

const Health = t.Object({
  robots_txt: t.Object({
    status: nullable(t.String({ description: "robots.txt of the entry origin: ok, missing, …" })),
    checked_at: nullable(time()),
  }),
  entry_url: nullable(t.String()),
  fetched: nullable(count()),
  errors: nullable(t.Object({ clientError: count(), serverError: count(), fetchError: count() })),
  error_rate: nullable(t.Number({ minimum: 0, maximum: 1 })),
  median_response_s: nullable(t.Number({ minimum: 0 })),
  last_job: nullable(
    t.Object({
      id: t.String(),
      state: t.UnionEnum(JOB_STATES),
      created_at: time(),
      finished_at: nullable(time()),
      render: t.Object(
        { mode: t.UnionEnum(RENDER_MODES), rendered: t.Integer({ minimum: 0 }) },
        { description: "The job's render mode and the pages it rendered in Chromium." },
      ),
    }),
  ),
  last_job_state: nullable(t.UnionEnum(JOB_STATES)),
  search_index: nullable(
    t.Object(
      {
        state: t.UnionEnum(["ready", "rebuilding"]),
        detail: nullable(
          t.String({
            examples: [
              "search index corrupt, rebuilding from the database: 1200 of 2,824 pages back",
            ],
          }),
        ),
      },
      {
        description:
          "Whether search answers for every page SQLite holds: `rebuilding` while the domain's shard is rebuilt from the database after a crash or a damaged file (searches then say `partial`); null on a server without search. `webcorpus verify` checks the shard in full.",
      },
    ),
  ),
});

const Property = t.Object({
  locale: t.String({ examples: ["en-US"] }),
  root_url: t.String({ examples: ["https://example.com/en-us/"] }),
  pages: count(),
  sitemaps: t.Array(t.String()),
  hreflang_alternates: t.Array(t.Object({ hreflang: t.String(), url: t.String() })),
});

const Sitemap = t.Object({
  url: t.String(),
  url_count: count(),
  status: t.String(),
  last_modified: nullable(time()),
  fetched_at: nullable(time()),
});

const Changed = t.Object({
  count: count(),
  pages: t.Array(t.Object({ id: t.String(), url: t.String(), title: nullable(t.String()) }), {
    description: "Up to 20, by URL.",
  }),
});

const Changes = t.Object({
  job_id: nullable(t.String({ description: "The latest finished job." })),
  previous_job_id: nullable(t.String()),
  added: Changed,
  removed: Changed,
  modified: Changed,
});

const LinkTarget = t.Object({
  domain: t.String(),
  links: count(),
  pages: count("Pages of this domain linking there."),
  hosts: t.Array(t.String(), { maxItems: 10 }),
});

export const Domain = t.Object(
  {
    domain: t.String({ examples: ["python.org"] }),
    coverage: Coverage,
    health: Health,
    properties: t.Array(Property, { description: "One per language." }),
    sitemaps: t.Array(Sitemap),
    changes: Changes,
    links_to: t.Array(LinkTarget, {
      description: "Other domains linked, most linking pages first.",
    }),
    collections: t.Array(t.Object({ slug: t.String(), name: t.String(), reason: t.String() })),
  },
  { description: "A company's domain record.", examples: [domainExample] },
);
