/** The list envelope's schema: items, counts, paging, and the filters each list reports. */
import { type TObject, Type } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";
import { JOB_STATES } from "../db/schema.ts";

const strings = () => t.Array(t.String());
const optional = t.Optional;

/** `filters.applied` of each list: the filters a query used, with their normalized values. */
export const Applied = {
  none: t.Object({}, { description: "This list takes no filters." }),
  content: t.Object({
    q: optional(t.String()),
    domain: optional(strings()),
    collection: optional(t.String()),
    type: optional(strings()),
    format: optional(strings()),
    audience: optional(strings()),
    locale: optional(strings()),
    topics: optional(strings()),
    technicality_min: optional(t.Number()),
    depth_min: optional(t.Number()),
    originality_min: optional(t.Number()),
    promotional_max: optional(t.Number()),
    has_code: optional(t.Boolean()),
    words_min: optional(Type.Integer()),
    published_after: optional(t.String({ description: "A date, or a time in UTC (RFC 3339)." })),
  }),
  search: t.Object({
    domain: optional(strings()),
    collection: optional(t.String()),
    locale: optional(strings()),
    type: optional(strings()),
    topics: optional(strings()),
    technicality_min: optional(t.Number()),
  }),
  facets: t.Object({ domain: optional(strings()), collection: optional(t.String()) }),
  jobs: t.Object({ domain: optional(t.String()), state: optional(t.UnionEnum(JOB_STATES)) }),
  jobUrls: t.Object({ bucket: optional(t.String()) }),
};

export function filtersSchema<A extends TObject>(applied: A) {
  return t.Object({
    applied: t.Object(applied.properties as A["properties"], {
      description: "Every filter the query used, with its normalized value.",
    }),
    unrecognized: t.Array(t.String(), {
      description: "Query parameters this endpoint does not know (listed, not applied).",
      examples: [["tecnicality_min"]],
    }),
  });
}

export function listSchema<T extends TSchema, A extends TObject>(
  item: T,
  description: string,
  applied: A = Applied.none as unknown as A,
  examples?: readonly unknown[],
) {
  return t.Object(
    {
      data: t.Array(item),
      total: Type.Integer({ minimum: 0, description: "All matches." }),
      limit: Type.Integer({ minimum: 0 }),
      offset: Type.Integer({ minimum: 0 }),
      sort: t.String(),
      filters: filtersSchema(applied),
    },
    { description, ...(examples ? { examples } : {}) },
  );
}
