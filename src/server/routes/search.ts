import { Elysia } from "elysia";
import { searchExample } from "../../schemas/examples.ts";
import { searchQuery } from "../../schemas/params.ts";
import { SearchResult } from "../../schemas/responses.ts";
import { notImplemented } from "../../services/errors.ts";
import { search, searchRequest } from "../../services/search-service.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { unrecognized } from "../query.ts";
import { described, models, responses } from "../responses.ts";

export function searchRoutes(deps: AppDeps) {
  const { config, store } = deps;
  const query = searchQuery(config);
  return new Elysia({ name: "routes:search" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .get(
      "/api/search",
      async ({ query: args, request }) => {
        if (!deps.search) {
          searchRequest(config, args);
          throw notImplemented("search on this server (it has no search index)");
        }
        const result = await search({ config, db: store.read, ...deps.search }, args);
        return {
          data: result.data,
          query: result.query,
          mode: result.mode,
          limit: result.limit,
          filters: { applied: result.applied, unrecognized: unrecognized(request, query) },
          ...(result.partial ? { partial: result.partial } : {}),
        };
      },
      {
        auth: "read",
        query,
        response: responses(
          {
            200: described(
              SearchResult,
              "Hits, best first: chunks with their page, heading, text, fused score and rank in each engine",
              searchExample,
            ),
          },
          401,
          404,
          501,
        ),
        detail: {
          tags: ["search"],
          summary: "Hybrid search over page chunks",
          description:
            "Vector and full-text results fused on rank over pages (each engine scores a page by the sum of 1 / (1 + rank) over its chunks in that engine's top 100); filters apply inside both engines, so `limit` results come back whenever that many chunks match. `mode`: hybrid (default), vector or text; with embeddings off, hybrid answers from text alone. While the search index of a domain in scope is being rebuilt from the database (after a crash or a damaged shard file), the answer carries `partial`: which domains, how far along, and that their pages may be missing until it is done.",
        },
      },
    );
}
