import { Elysia, t } from "elysia";
import { pageListExample } from "../../schemas/examples.ts";
import { contentQuery, pageIdParams, pageQuery } from "../../schemas/params.ts";
import { Applied, listSchema, Page, PageSummary, PartialAnswer } from "../../schemas/responses.ts";
import {
  listContent,
  pageJson,
  pageMarkdown,
  pageScreenshot,
} from "../../services/content-service.ts";
import { envelope } from "../../services/envelope.ts";
import { ReadCache } from "../../services/read-cache.ts";
import { textPages } from "../../services/search-service.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { unrecognized } from "../query.ts";
import { described, models, responses } from "../responses.ts";

export const MARKDOWN = "text/markdown; charset=utf-8";
/** What Elysia answers for an object; page reads answer their JSON text with the same. */
const JSON_UTF8 = "application/json;charset=utf-8";
/** Characters of page answers kept in memory (UTF-16: at most twice as many bytes). */
const PAGE_CACHE_CHARS = 16 * 1024 * 1024;

export function contentRoutes(deps: AppDeps) {
  const { config, store } = deps;
  const query = contentQuery(config);
  const answers = new ReadCache(store.read, PAGE_CACHE_CHARS);
  return new Elysia({ name: "routes:content" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .get(
      "/api/content",
      async ({ query: args, request }) => {
        const list = await listContent(
          store.read,
          config,
          args,
          deps.search ? textPages({ config, db: store.read, ...deps.search }) : null,
        );
        return {
          ...envelope(list, unrecognized(request, query)),
          ...(list.partial ? { partial: list.partial } : {}),
        };
      },
      {
        auth: "read",
        query,
        response: responses(
          {
            200: described(
              t.Composite([
                listSchema(PageSummary, "Pages matching the filters", Applied.content),
                t.Object({ partial: t.Optional(PartialAnswer) }),
              ]),
              "Pages matching the filters; `partial` while a search index in scope rebuilds (with q)",
              pageListExample,
            ),
          },
          401,
          404,
          501,
        ),
        detail: {
          tags: ["content"],
          summary: "Faceted list of pages",
          description:
            "Every filter is a facet scored when the page was indexed. `filters.applied` echoes the filters used; `filters.unrecognized` lists query parameters this endpoint does not know.",
        },
      },
    )
    .get(
      "/api/content/:page_id",
      ({ params, query: flags }) => {
        // One route serves both: Elysia's router cannot put a literal `.md` after a parameter.
        // Both answer a Response, whose bytes are final: Elysia's response check (a clean and a
        // check of the whole page against the schema) is skipped, and `pageJson` writes the
        // fields in the schema's order, as the clean did (test/integration/page-json.test.ts).
        const id = params.page_id;
        if (id.endsWith(".md")) {
          const text = answers.get(id, () => pageMarkdown(store.read, id.slice(0, -3)));
          return new Response(text, { headers: { "content-type": MARKDOWN } });
        }
        const key = `${id} ${flags.markdown} ${flags.explain}`;
        const json = answers.get(key, () => pageJson(store.read, id, flags));
        return new Response(json, { headers: { "content-type": JSON_UTF8 } });
      },
      {
        auth: "read",
        params: pageIdParams,
        query: pageQuery,
        response: responses({ 200: t.Union([Page, t.String()]) }, 401, 404),
        detail: {
          tags: ["content"],
          summary: "One page as JSON",
          description:
            "Markdown body, facets, metrics, assets with alt text, screenshots, crawl history and the pages that cite it. `/api/content/{page_id}.md` answers the same page as markdown.",
        },
      },
    )
    .get(
      "/api/content/:page_id/screenshot.png",
      ({ params }) =>
        new Response(pageScreenshot(store.read, params.page_id), {
          headers: { "content-type": "image/png", "cache-control": "no-cache" },
        }),
      {
        auth: "read",
        params: pageIdParams,
        response: responses({ 200: t.Any({ description: "image/png" }) }, 401, 404),
        detail: { tags: ["content"], summary: "The page's latest screenshot (1280x800 PNG)" },
      },
    );
}
