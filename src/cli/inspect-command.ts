/**
 * `webcorpus inspect URL` and `webcorpus inspect FILE --url URL`: what the crawler would store for
 * one page (the markdown, metadata and facets as the page read shows them, the chunks as search
 * indexes them; `--explain` adds why each facet was chosen), by running the same extraction,
 * scoring and chunking. A URL is fetched once through the same path as POST /api/fetch
 * (src/services/fetch-service.ts: the crawler's fetcher, its SSRF guard, `WEBCORPUS_CONNECT_TO`,
 * timeouts and body cap; redirects followed hop by hop), except that robots.txt is not read (an
 * operator inspecting a page); a FILE is a saved page, read from disk, and nothing is fetched.
 * Nothing is stored.
 */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Config } from "../config.ts";
import { normalizeUrl } from "../crawl/urls.ts";
import { isPdf } from "../extract/pdf/pdf-type.ts";
import { ServiceError } from "../services/errors.ts";
import {
  type Chunker,
  chunkerFor,
  inspectPage as processed,
  UrlReader,
} from "../services/fetch-service.ts";
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

/** What the crawler would store for one page; `rawUrl` is checked and normalized first. */
function inspectPage(
  html: Uint8Array,
  rawUrl: string,
  headers: Record<string, string>,
  explain: boolean,
  options: { chunk?: Chunker; vectorPolicy?: boolean } = {},
) {
  const url = normalizeUrl(rawUrl);
  if (url === null) throw new CliError(`error: not an http(s) URL: ${JSON.stringify(rawUrl)}`);
  return processed(html, url, headers, explain, options);
}

/** The page at `url`, fetched as the crawler fetches it (robots.txt not read). */
async function fetchPage(config: Config, url: string) {
  try {
    return await new UrlReader(config).fetch(url, { robots: false });
  } catch (err) {
    // What the crawler would have booked instead of a page.
    if (err instanceof ServiceError) throw new CliError(`error: ${err.message}`, 1);
    throw err;
  }
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
    // What the crawler would have booked as notHtml by its type (a PDF it reads).
    if (html.subarray(0, 4096).includes(0) && !isPdf(undefined, html))
      throw new CliError(`error: ${target} is binary data, not an HTML page`);
    url = values.url as string;
    headers = given;
  }
  const result = await inspectPage(html, url, headers, values.explain, {
    chunk: chunkerFor(config),
    vectorPolicy: config.indexPageVectors === "policy",
  });
  console.log(JSON.stringify(result, null, values.compact ? undefined : 2));
  return 0;
}
