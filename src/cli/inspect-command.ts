/**
 * `webcorpus inspect URL` and `webcorpus inspect FILE --url URL`: what the crawler would store for
 * one page (the markdown, metadata and facets as the page read shows them, the chunks as search
 * indexes them; `--explain` adds why each facet was chosen), by running the same extraction,
 * scoring and chunking. A URL is fetched once through the crawler's fetcher (its SSRF guard,
 * `WEBCORPUS_CONNECT_TO`, timeouts and body cap; redirects followed hop by hop, robots.txt not
 * read); a FILE is a saved page, read from disk, and nothing is fetched. Nothing is stored.
 */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type Config, disableProxies } from "../config.ts";
import { registrableDomain } from "../crawl/domains.ts";
import { Fetcher, fetcherOptions } from "../crawl/fetcher.ts";
import { fetchOutcome } from "../crawl/outcome.ts";
import { processPage } from "../crawl/process-page.ts";
import { normalizeUrl, pageId, urlHost } from "../crawl/urls.ts";
import { chunkMarkdown } from "../search/chunking.ts";
import { anchorsOnly } from "../search/link-anchors.ts";
import { loadTokenCounter, MODEL_DIR, modelFiles } from "../search/model-files.ts";
import { indexEvidence, markdownShape } from "../search/vector-policy.ts";
import { CliError, startConfig } from "./context.ts";
import { INSPECT_USAGE } from "./usage.ts";

export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon <= 0 || !value.slice(0, colon).trim())
      throw new CliError(`error: --header wants NAME:VALUE, got ${JSON.stringify(value)}`);
    headers[value.slice(0, colon).trim().toLowerCase()] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** Chunks as the crawl workers cut them: by the embedding model's own word pieces. */
export function chunkerFor(config: Config | null) {
  let dir = MODEL_DIR;
  try {
    // The tokenizer is the same for every variant; an fp32 graph that is missing does not matter.
    dir = modelFiles(config?.modelDir ?? null, "int8").dir;
  } catch {}
  const counter = loadTokenCounter(dir);
  return (markdown: string, title: string | null) => chunkMarkdown(markdown, counter, { title });
}

export function inspectPage(
  html: Uint8Array,
  rawUrl: string,
  headers: Record<string, string>,
  explain: boolean,
  options: { chunk?: ReturnType<typeof chunkerFor>; vectorPolicy?: boolean } = {},
) {
  const url = normalizeUrl(rawUrl);
  if (url === null) throw new CliError(`error: not an http(s) URL: ${JSON.stringify(rawUrl)}`);
  const page = processPage(html, url, {
    headers,
    ...(options.chunk ? { chunk: options.chunk } : {}),
    vectorPolicy: options.vectorPolicy ?? true,
  });
  const { doc, facets } = page;
  const host = urlHost(url) ?? "";
  const canonical = doc.canonicalUrl ? normalizeUrl(doc.canonicalUrl, url) : null;
  return {
    id: pageId(url),
    url,
    canonical_url: canonical ?? url,
    title: doc.title,
    description: doc.description,
    domain: registrableDomain(host, { allowPrivateSuffixes: true }) ?? host,
    facets,
    markdown: doc.markdown,
    metadata: {
      declared_language: doc.language,
      hreflang: doc.hreflang.map(([hreflang, href]) => ({ hreflang, url: href })),
      noindex: doc.noindex,
      nofollow: doc.nofollow,
      jsonld_types: doc.jsonldTypes,
      og_type: doc.ogType,
      published_extracted: doc.published,
    },
    assets: doc.assets,
    links: doc.links.map((l) => ({
      url: l.url,
      anchor_text: l.anchorText,
      position: l.position,
      nofollow: l.nofollow,
    })),
    // The chunks search indexes, each with its heading path and word pieces; `vector: false` for
    // those the vector policy leaves to text search (WEBCORPUS_INDEX_PAGE_VECTORS=policy).
    chunks: page.chunks.map((c) => ({
      index: c.index,
      heading: anchorsOnly(c.heading), // shown as search shows it: links read as their anchors
      tokens: c.tokens,
      vector: c.vectorWanted !== false,
      text: c.text,
    })),
    ...(explain ? { explain: page.explain } : {}),
    signals: {
      extract_ms: Math.round((page.timings.extract ?? 0) * 100) / 100,
      facets_ms: Math.round((page.timings.facets ?? 0) * 100) / 100,
      boilerplate_share: Math.round(page.boilerplate * 1000) / 1000,
      simhash: page.simhash,
      body_links: doc.links.filter((l) => l.position === "body").length,
      template_links: doc.links.filter((l) => l.position === "template").length,
      // Why the vector policy reads the page as a generated index (null: it does not); such a
      // page gives vectors to its first chunks only.
      index_page: indexEvidence({
        url,
        type: facets.type,
        chunks: page.chunks.length,
        shape: markdownShape(doc.markdown),
      }),
    },
  };
}

/** The page at `url`, fetched as the crawler fetches it; its final URL and response headers. */
async function fetchPage(config: Config, url: string) {
  disableProxies();
  const fetcher = new Fetcher(fetcherOptions(config));
  const result = await fetcher.fetchFollowing(url);
  const final = result.redirects.at(-1)?.location ?? url;
  const outcome = fetchOutcome({ ...result, url: final });
  if (outcome.kind !== "page") {
    // What the crawler would have booked instead of a page.
    throw new CliError(`error: ${final}: ${outcome.bucket}: ${outcome.reason}`, 1);
  }
  return { body: result.body, url: final, headers: { ...result.headers } };
}

export async function inspectCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      url: { type: "string" },
      header: { type: "string", multiple: true, default: [] },
      explain: { type: "boolean", default: false },
      compact: { type: "boolean", default: false },
    },
    allowPositionals: true,
  });
  const [target, ...extra] = positionals;
  if (!target || extra.length > 0) throw new CliError(INSPECT_USAGE);
  const live = /^https?:\/\//i.test(target);
  if (live && values.url !== undefined)
    throw new CliError(`error: --url is for a saved FILE; ${target} is fetched as it is`);
  if (!live && !values.url) throw new CliError(INSPECT_USAGE);
  const given = parseHeaders(values.header);
  const config = startConfig();
  let html: Uint8Array;
  let url: string;
  let headers: Record<string, string>;
  if (live) {
    if (normalizeUrl(target) === null)
      throw new CliError(`error: not an http(s) URL: ${JSON.stringify(target)}`);
    const page = await fetchPage(config, target);
    html = page.body;
    url = page.url;
    // --header overrides what the server sent (a Content-Language to try, say).
    headers = { ...page.headers, ...given };
  } else {
    try {
      html = readFileSync(target);
    } catch (err) {
      throw new CliError(`error: cannot read ${target}: ${(err as Error).message}`);
    }
    // What the crawler would have booked as notHtml by its type.
    if (html.subarray(0, 4096).includes(0))
      throw new CliError(`error: ${target} is binary data, not an HTML page`);
    url = values.url as string;
    headers = given;
  }
  const result = inspectPage(html, url, headers, values.explain, {
    chunk: chunkerFor(config),
    vectorPolicy: config.indexPageVectors === "policy",
  });
  console.log(JSON.stringify(result, null, values.compact ? undefined : 2));
  return 0;
}
