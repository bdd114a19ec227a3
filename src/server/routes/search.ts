import { Elysia } from "elysia";
import { searchQuery } from "../../schemas/params.ts";
import { SearchResult } from "../../schemas/responses.ts";
import { search } from "../../services/search-service.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { models, responses } from "../responses.ts";

export function searchRoutes(deps: AppDeps) {
  const { config, store } = deps;
  return new Elysia({ name: "routes:search" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .get("/api/search", ({ query }) => search(config, query), {
      auth: "read",
      query: searchQuery(config),
      response: responses({ 200: SearchResult }, 401, 501),
      detail: {
        tags: ["search"],
        summary: "Hybrid search over page chunks",
        description:
          "Vector and full-text results fused on rank (reciprocal rank fusion); filters apply inside both engines, so `limit` results come back whenever that many chunks match. `mode`: hybrid (default), vector or text.",
      },
    });
}
