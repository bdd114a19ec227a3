/**
 * The MCP tools: each one takes the arguments of its HTTP twin, calls the same service and
 * answers its JSON as structured content, with compact text for the model (text-answers.ts);
 * markdown tools answer the text in parts.
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
import { fetchUrl, urlFetching } from "../services/fetch-service.ts";
import { withPrefix } from "../services/ids.ts";
import { jobView, requireJob } from "../services/jobs-service.ts";
import { checkSlug, joinList } from "../services/params.ts";
import { search, searchRequest, textPages } from "../services/search-service.ts";
import { answer, asJson, clip, DEFAULT_MAX_CHARS, markdownResult } from "./results.ts";
import {
  contentText,
  crawlText,
  domainText,
  facetsText,
  jobText,
  pageText,
  placedText,
  readUrlText,
  searchText,
  shelfText,
  shelvesText,
} from "./text-answers.ts";
import { DESCRIPTIONS } from "./tool-descriptions.ts";
import { LISTS, OUTPUT_FIELDS, toolSchemas } from "./tool-schemas.ts";

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
  /** The result fields its published output schema names. */
  readonly outputFields: readonly string[];
  readonly annotations: ToolAnnotations;
  /** Bad arguments are body fields (`invalid_body`) rather than parameters. */
  readonly where: "param" | "field";
  readonly write: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): CallToolResult | Promise<CallToolResult>;
}

// Only what a client acts on and differs from the spec's defaults (readOnlyHint false,
// destructiveHint true): every client reads the list on every turn.
const READ: ToolAnnotations = { readOnlyHint: true };
const WRITE: ToolAnnotations = { destructiveHint: false };

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
    outputFields: OUTPUT_FIELDS[name],
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
      const data = {
        data: result.data,
        query: result.query,
        mode: result.mode,
        limit: result.limit,
        filters: { applied: result.applied, unrecognized: [...ctx.unrecognized] },
        ...(result.partial ? { partial: result.partial } : {}),
      };
      return answer(searchText(data), data);
    }),
    define("list_content", {}, async (args, ctx) => {
      const found = await listContent(
        store.read,
        config,
        args,
        deps.search ? textPages({ config, db: store.read, ...deps.search }) : null,
      );
      const list = {
        ...envelope(found, ctx.unrecognized),
        ...(found.partial ? { partial: found.partial } : {}),
      };
      return answer(contentText(list), list);
    }),
    define("get_page", {}, (args) => {
      const page = pageView(store.read, args.page_id, args);
      return args.explain ? asJson(page) : answer(pageText(page), page);
    }),
    define("get_page_markdown", {}, (args) =>
      markdownResult(
        { page_id: withPrefix("pg_", args.page_id).toLowerCase() },
        pageMarkdown(store.read, args.page_id),
        args.offset ?? 0,
        args.max_chars ?? DEFAULT_MAX_CHARS,
      ),
    ),
    define("get_domain", {}, (args) => {
      const record = domainRecord(
        store.read,
        args.domain,
        allow,
        "domain",
        deps.search?.indexStatus ?? null,
      );
      return args.full ? asJson(record) : answer(domainText(record), record);
    }),
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
    define("list_collections", {}, (_args, ctx) => {
      const list = envelope(shelfList(store.read), ctx.unrecognized);
      return answer(shelvesText(list), list);
    }),
    define("get_collection", {}, (args) => {
      const shelf = collectionView(store.read, args.slug);
      return answer(shelfText(shelf), shelf);
    }),
    define("get_job", {}, (args) => {
      const job = jobView(
        { db: store.read, embeddingBacklog: deps.embeddingBacklog },
        requireJob(store.read, args.job_id),
      );
      return args.full ? asJson(job) : answer(jobText(job), job);
    }),
    define("list_facets", {}, (args, ctx) => {
      const list = facetList(store.read, config, args, ctx.unrecognized);
      return answer(facetsText(list, args.definitions ?? false), list);
    }),
    define("start_crawl", { write: true }, (args, ctx) => {
      const job = startCrawl(
        store.write,
        crawlRequest(config, args),
        ctx.key?.id ?? null,
        deps.limiter,
      );
      deps.onCrawlQueued?.();
      const data = { job_id: job.id, state: "queued", domain: job.domain };
      return answer(crawlText(data), data);
    }),
    define("read_url", { write: true }, async (args, ctx) => {
      const { reader, limiter } = deps.fetching ?? urlFetching(config);
      const view = await fetchUrl(reader, limiter, { url: args.url }, ctx.key?.id ?? null);
      const part = {
        url: view.url,
        title: view.title,
        facets: view.facets,
        ...clip(view.markdown, args.offset ?? 0, args.max_chars ?? DEFAULT_MAX_CHARS),
      };
      return answer(readUrlText(part), part);
    }),
    define("place_on_shelf", { write: true }, (args) => {
      const slug = checkSlug(args.collection, "collection");
      const { member, created, shelfCreated } = placeOnShelf(
        store.write,
        config,
        slug,
        {
          domain: args.domain,
          ...(args.reason === undefined ? {} : { reason: args.reason }),
          placed_by: "agent",
        },
        { createShelf: args.shelf_name === undefined ? {} : { name: args.shelf_name } },
      );
      const data = { ...member, created };
      return answer(placedText(slug, data, shelfCreated), data);
    }),
  ];
}
