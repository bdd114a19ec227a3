import { Elysia, t } from "elysia";
import { facetsQuery } from "../../schemas/params.ts";
import { envelope } from "../../schemas/responses.ts";
import { listFacets } from "../../services/facets-service.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { unrecognized } from "../query.ts";
import { models, responses } from "../responses.ts";

const Facet = t.Object({
  facet: t.String(),
  param: t.String(),
  kind: t.String(),
  definition: t.Optional(t.String()),
  values: t.Optional(
    t.Array(t.Object({ value: t.Any(), pages: t.Integer(), definition: t.Optional(t.String()) })),
  ),
  range: t.Optional(t.Array(t.Number())),
});

export function facetsRoutes(deps: AppDeps) {
  const { config, store } = deps;
  return new Elysia({ name: "routes:facets" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .get(
      "/api/facets",
      ({ query, request }) => {
        const result = listFacets(store.read, config, query);
        return {
          data: result.data,
          total: result.data.length,
          limit: result.data.length,
          offset: 0,
          sort: "facet",
          pages: result.pages,
          filters: { applied: result.applied, unrecognized: unrecognized(request, facetsQuery) },
        };
      },
      {
        auth: "read",
        query: facetsQuery,
        response: responses(
          {
            200: t.Composite([
              envelope(Facet, "Facets"),
              t.Object({ pages: t.Integer({ description: "Pages in scope" }) }),
            ]),
          },
          401,
        ),
        detail: {
          tags: ["facets"],
          summary: "Facet vocabularies with page counts per value",
          description:
            "Every value a filter takes, with its definition and how many pages have it: agents build valid filters from this.",
        },
      },
    );
}
