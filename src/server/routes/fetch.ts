import { Elysia, t } from "elysia";
import { FetchedPage, fetchBody, fetchedExample } from "../../schemas/fetch.ts";
import { fetchedMarkdown, fetchUrl, urlFetching } from "../../services/fetch-service.ts";
import { auth } from "../auth.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBodyParser } from "../json-body.ts";
import { described, models, responses } from "../responses.ts";
import { MARKDOWN } from "./content.ts";

const JSON_UTF8 = "application/json;charset=utf-8";

/** True when the request asks for markdown (`Accept: text/markdown`) before JSON. */
function wantsMarkdown(request: Request): boolean {
  const accept = (request.headers.get("accept") ?? "").toLowerCase();
  return /(^|,)\s*text\/markdown\b/.test(accept);
}

export function fetchRoutes(deps: AppDeps) {
  const { config, store } = deps;
  const security = [{ bearer: [] }];
  return new Elysia({ name: "routes:fetch" })
    .use(models)
    .use(auth(store.read, config.publicReads))
    .post(
      "/api/fetch",
      async ({ body, key, request }) => {
        const { reader, limiter } = deps.fetching ?? urlFetching(config);
        const view = await fetchUrl(reader, limiter, body, key?.id ?? null, {
          db: store.write,
          config,
          ...(deps.onCrawlQueued ? { onQueued: deps.onCrawlQueued } : {}),
        });
        // A Response either way: the answer is final (as the page reads answer theirs).
        if (wantsMarkdown(request))
          return new Response(fetchedMarkdown(view), { headers: { "content-type": MARKDOWN } });
        return new Response(JSON.stringify(view), { headers: { "content-type": JSON_UTF8 } });
      },
      {
        auth: "write",
        parse: [jsonBodyParser(fetchBody, config.maxBodyRequestBytes), "json"],
        body: fetchBody,
        response: responses(
          {
            200: t.Union([
              described(FetchedPage, "The page as the crawler would index it", fetchedExample),
              t.String(),
            ]),
          },
          401,
          403,
          409,
          413,
          415,
          422,
          429,
          451,
          502,
        ),
        detail: {
          tags: ["crawl"],
          summary: "Fetch one URL and read it as a page",
          description:
            "Fetched through the crawler's fetcher (SSRF guard, robots.txt for our user agent, timeouts, body cap; redirects followed, each hop checked), then extracted, scored and chunked as a crawled page, and answered at once: JSON, or markdown with a YAML frontmatter for `Accept: text/markdown`. Nothing is stored unless `store: true`: then a one-URL crawl job stores the page through the crawler (fetched once more, with robots, pacing, duplicates and canonical as a crawl has them) and `job_id` names it; a domain whose crawl is under way answers 409. A bad URL or an address the SSRF guard refuses is a 400 naming `url`; a URL robots.txt disallows (or whose robots.txt cannot be read) 451; a site that gives no page (timeout, DNS, 4xx/5xx, too large) 502; an answer that is not an HTML page (another type, noindex) 422. Fetches are limited per key (429 with Retry-After; WEBCORPUS_FETCH_RATE_PER_MINUTE).",
          security,
        },
      },
    );
}
