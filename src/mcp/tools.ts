/**
 * The MCP tools: each one takes the arguments of its HTTP twin, calls the same service and
 * answers the same JSON (markdown tools answer the text in parts).
 */

import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Static, TObject } from "@sinclair/typebox";
import type { KeyRecord } from "../db/keys-repo.ts";
import type { AppDeps } from "../server/deps.ts";
import { bundleText, domainBundle } from "../services/bundle-service.ts";
import { collectionView, placeOnShelf, shelfList } from "../services/collections-service.ts";
import { listContent, pageMarkdown, pageView } from "../services/content-service.ts";
import { crawlRequest, startCrawl } from "../services/crawl-service.ts";
import { domainRecord } from "../services/domains-service.ts";
import { envelope } from "../services/envelope.ts";
import { notImplemented } from "../services/errors.ts";
import { facetList } from "../services/facets-service.ts";
import { withPrefix } from "../services/ids.ts";
import { jobView, requireJob } from "../services/jobs-service.ts";
import { checkSlug, joinList } from "../services/params.ts";
import { search, searchRequest, textPages } from "../services/search-service.ts";
import { DEFAULT_MAX_CHARS, markdownResult, ok } from "./results.ts";
import { DESCRIPTIONS } from "./tool-descriptions.ts";
import { LISTS, toolSchemas } from "./tool-schemas.ts";

export interface ToolContext {
  readonly deps: AppDeps;
  readonly key: KeyRecord | null;
  /** Argument names the tool does not know, for `filters.unrecognized`. */
  readonly unrecognized: readonly string[];
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly input: TObject;
  readonly output: TObject;
  readonly annotations: ToolAnnotations;
  /** Bad arguments are body fields (`invalid_body`) rather than parameters. */
  readonly where: "param" | "field";
  readonly write: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): CallToolResult | Promise<CallToolResult>;
}

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: true };

/** List arguments given as arrays, joined into the comma lists the services take. */
function joined<T extends Record<string, unknown>>(args: T): T {
  const out: Record<string, unknown> = { ...args };
  for (const key of Object.keys(LISTS)) {
    const value = out[key];
    if (Array.isArray(value)) out[key] = joinList(value as string[]);
  }
  return out as T;
}

export function toolTable(deps: AppDeps): Tool[] {
  const { config, store } = deps;
  const allow = config.allowPrivateSuffixes;
  const { args: A, results: R } = toolSchemas(config);
  type Args<K extends keyof typeof A> = Static<(typeof A)[K]>;

  const define = <K extends keyof typeof A>(
    name: K,
    options: { write?: boolean },
    run: (args: Args<K>, ctx: ToolContext) => CallToolResult | Promise<CallToolResult>,
  ): Tool => ({
    name,
    description: DESCRIPTIONS[name],
    input: A[name],
    output: R[name] as TObject,
    annotations: options.write ? WRITE : READ,
    where: options.write ? "field" : "param",
    write: options.write ?? false,
    run: (args, ctx) => run(joined(args) as Args<K>, ctx),
  });

  return [
    define("search", {}, async (args, ctx) => {
      if (!deps.search) {
        searchRequest(config, args);
        throw notImplemented("search on this server (it has no search index)");
      }
      const result = await search({ config, db: store.read, ...deps.search }, args);
      return ok({
        data: result.data,
        query: result.query,
        mode: result.mode,
        limit: result.limit,
        filters: { applied: result.applied, unrecognized: ctx.unrecognized },
      });
    }),
    define("list_content", {}, async (args, ctx) =>
      ok(
        envelope(
          await listContent(
            store.read,
            config,
            args,
            deps.search ? textPages({ config, db: store.read, ...deps.search }) : null,
          ),
          ctx.unrecognized,
        ),
      ),
    ),
    define("get_page", {}, (args) => ok(pageView(store.read, args.page_id, args))),
    define("get_page_markdown", {}, (args) =>
      markdownResult(
        { page_id: withPrefix("pg_", args.page_id).toLowerCase() },
        pageMarkdown(store.read, args.page_id),
        args.offset ?? 0,
        args.max_chars ?? DEFAULT_MAX_CHARS,
      ),
    ),
    define("get_domain", {}, (args) => ok(domainRecord(store.read, args.domain, allow, "domain"))),
    define("get_domain_markdown", {}, (args) => {
      const bundle = domainBundle(store.read, args.domain, args, {
        allowPrivateSuffixes: allow,
        param: "domain",
      });
      return markdownResult(
        { domain: bundle.domain },
        bundleText(bundle),
        args.offset ?? 0,
        args.max_chars ?? DEFAULT_MAX_CHARS,
      );
    }),
    define("list_collections", {}, (_args, ctx) =>
      ok(envelope(shelfList(store.read), ctx.unrecognized)),
    ),
    define("get_collection", {}, (args) => ok(collectionView(store.read, args.slug))),
    define("get_job", {}, (args) =>
      ok(
        jobView(
          { db: store.read, embeddingBacklog: deps.embeddingBacklog },
          requireJob(store.read, args.job_id),
        ),
      ),
    ),
    define("list_facets", {}, (args, ctx) =>
      ok(facetList(store.read, config, args, ctx.unrecognized)),
    ),
    define("start_crawl", { write: true }, (args, ctx) => {
      const job = startCrawl(
        store.write,
        crawlRequest(config, args),
        ctx.key?.id ?? null,
        deps.limiter,
      );
      deps.onCrawlQueued?.();
      return ok({ job_id: job.id, state: "queued", domain: job.domain });
    }),
    define("place_on_shelf", { write: true }, (args) => {
      const slug = checkSlug(args.collection, "collection");
      const { member, created } = placeOnShelf(store.write, config, slug, {
        domain: args.domain,
        ...(args.reason === undefined ? {} : { reason: args.reason }),
        placed_by: "agent",
      });
      return ok({ ...member, created });
    }),
  ];
}
