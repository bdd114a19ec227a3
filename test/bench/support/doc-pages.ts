/**
 * The doc sites' pages for the benches that run the crawl workers' stage on one thread: the site
 * a `--site` option names, and its pages with their bodies as the doc server sends them.
 */
import { type Chunker, type ProcessedPage, processPage } from "../../../src/crawl/process-page.ts";
import { chunkMarkdown } from "../../../src/search/chunking.ts";
import { loadTokenCounter } from "../../../src/search/model-files.ts";
import { resolvePath } from "../../sites/support/doc-server.ts";
import { type DocSite, docSites, siteUrl } from "../../sites/support/doc-sites.ts";

export const SITE_NAMES = ["python", "postgres", "handbook"] as const;

/** The doc site named by a bench's `--site` option. */
export function benchSite(name: string | undefined): DocSite {
  const sites = docSites();
  const site = { python: sites.python, postgres: sites.postgres, handbook: sites.handbook }[
    name as (typeof SITE_NAMES)[number]
  ];
  if (!site) throw new Error(`--site: ${SITE_NAMES.join(", ")}`);
  return site;
}

export interface SitePage {
  readonly url: string;
  readonly body: Uint8Array;
}

/** URL and body of each page (the first `limit`; 0: all) of `paths`, the pages a crawl may
 * fetch by default; redirects and missing files are skipped. */
export function sitePages(
  site: DocSite,
  limit = 0,
  paths: readonly string[] = site.allowedPages,
): SitePage[] {
  const pages: SitePage[] = [];
  for (const path of limit > 0 ? paths.slice(0, limit) : paths) {
    const found = resolvePath(site, path);
    if (found.kind !== "file") continue;
    const { body } = found.rep;
    pages.push({ url: siteUrl(site, path), body: typeof body === "function" ? body() : body });
  }
  return pages;
}

/** The crawl workers' stage as crawl-worker.ts builds it: the chunker cutting by the model's word
 * pieces, and processPage on a page served as HTML. */
export function workerStage(): { chunk: Chunker; run: (page: SitePage) => ProcessedPage } {
  const counter = loadTokenCounter();
  const chunk: Chunker = (markdown, title) => chunkMarkdown(markdown, counter, { title });
  const headers = { "content-type": "text/html" };
  return { chunk, run: ({ url, body }) => processPage(body, url, { headers, chunk }) };
}
