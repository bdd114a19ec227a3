import { Elysia, t } from "elysia";
import { bundleQuery, domainParams } from "../../schemas/params.ts";
import { Domain } from "../../schemas/responses.ts";
import { notImplemented } from "../../services/errors.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { models, responses } from "../responses.ts";

export function domainsRoutes(deps: AppDeps) {
  const { config, store } = deps;
  return new Elysia({ name: "routes:domains" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .get(
      "/api/domains/:root_domain",
      () => {
        throw notImplemented("the domain record");
      },
      {
        auth: "read",
        params: domainParams,
        response: responses({ 200: Domain }, 401, 404, 501),
        detail: {
          tags: ["domains"],
          summary: "A company's domain record",
          description:
            "coverage (with a page-count estimate as a range with a confidence), health, properties per language, sitemaps, changes since the previous crawl, links_to and collections.",
        },
      },
    )
    .get(
      "/api/domains/:root_domain/content.md",
      () => {
        throw notImplemented("the domain bundle");
      },
      {
        auth: "read",
        params: domainParams,
        query: bundleQuery(config),
        response: responses(
          { 200: t.String({ description: "text/markdown; charset=utf-8" }) },
          401,
          404,
          501,
        ),
        detail: {
          tags: ["domains"],
          summary: "The company's pages as one markdown file",
          description:
            "Every heading inside a page is demoted one level so the bundle forms a tree; the frontmatter and a closing line state how many pages it left out.",
        },
      },
    );
}
