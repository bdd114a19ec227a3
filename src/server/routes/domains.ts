import { Elysia, t } from "elysia";
import { bundleQuery, domainParams } from "../../schemas/params.ts";
import { Domain } from "../../schemas/responses.ts";
import { bundleStream, domainBundle } from "../../services/bundle-service.ts";
import { domainRecord } from "../../services/domains-service.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { models, responses } from "../responses.ts";
import { MARKDOWN } from "./content.ts";

export function domainsRoutes(deps: AppDeps) {
  const { config, store } = deps;
  const allowPrivateSuffixes = config.allowPrivateSuffixes;
  return new Elysia({ name: "routes:domains" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .get(
      "/api/domains/:root_domain",
      ({ params }) =>
        domainRecord(
          store.read,
          params.root_domain,
          allowPrivateSuffixes,
          "root_domain",
          deps.search?.indexStatus ?? null,
        ),
      {
        auth: "read",
        params: domainParams,
        response: responses({ 200: Domain }, 401, 404),
        detail: {
          tags: ["domains"],
          summary: "A company's domain record",
          description:
            "coverage (known and indexed pages, the latest job's buckets, and `estimate`: the site's total public pages as a range with a confidence), health (robots.txt of the entry origin, error rate, median response time, last job), properties per language with their sitemaps and hreflang alternates, sitemaps, changes since the previous crawl (added, removed, modified), links_to (other domains with link and page counts) and collections. A subdomain names its company: `www.python.org` answers `python.org`.",
        },
      },
    )
    .get(
      "/api/domains/:root_domain/content.md",
      ({ params, query }) => {
        const bundle = domainBundle(store.read, params.root_domain, query, {
          allowPrivateSuffixes,
        });
        return new Response(bundleStream(bundle), { headers: { "content-type": MARKDOWN } });
      },
      {
        auth: "read",
        params: domainParams,
        query: bundleQuery(config),
        response: responses({ 200: t.String({ description: MARKDOWN }) }, 401, 404),
        detail: {
          tags: ["domains"],
          summary: "The company's pages as one markdown file",
          description:
            "Streamed. A YAML frontmatter block (domain, pages_included, pages_left_out, filters, generated_at), then each page, most cited first, as a level-1 heading (its title) with `Source: <url>` and its body, every heading inside it demoted one level so the bundle forms a tree; a closing line states how many pages it left out.",
        },
      },
    );
}
