import { Elysia } from "elysia";
import { facetListExample } from "../../schemas/examples.ts";
import { facetsQuery } from "../../schemas/params.ts";
import { FacetList } from "../../schemas/responses.ts";
import { facetList } from "../../services/facets-service.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { unrecognized } from "../query.ts";
import { described, models, responses } from "../responses.ts";

export function facetsRoutes(deps: AppDeps) {
  const { config, store } = deps;
  return new Elysia({ name: "routes:facets" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .get(
      "/api/facets",
      ({ query, request }) =>
        facetList(store.read, config, query, unrecognized(request, facetsQuery)),
      {
        auth: "read",
        query: facetsQuery,
        response: responses(
          {
            200: described(
              FacetList,
              "Every facet with its values and their page counts in scope",
              facetListExample,
            ),
          },
          401,
          404,
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
