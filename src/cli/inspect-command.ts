/**
 * `webcorpus inspect FILE --url URL`: what the crawler would store for a saved HTML page (the
 * markdown, metadata and facets as the page read shows them; `--explain` adds why each facet was
 * chosen), by running the same extraction and scoring. Nothing is stored, nothing is fetched.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { registrableDomain } from "../crawl/domains.ts";
import { processPage } from "../crawl/process-page.ts";
import { normalizeUrl, pageId, urlHost } from "../crawl/urls.ts";
import { indexEvidence, markdownShape } from "../search/vector-policy.ts";
import { CliError } from "./context.ts";
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

export function inspectPage(
  html: Uint8Array,
  rawUrl: string,
  headers: Record<string, string>,
  explain: boolean,
) {
  const url = normalizeUrl(rawUrl);
  if (url === null) throw new CliError(`error: not an http(s) URL: ${JSON.stringify(rawUrl)}`);
  const page = processPage(html, url, { headers });
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
    ...(explain ? { explain: page.explain } : {}),
    signals: {
      extract_ms: Math.round((page.timings.extract ?? 0) * 100) / 100,
      facets_ms: Math.round((page.timings.facets ?? 0) * 100) / 100,
      boilerplate_share: Math.round(page.boilerplate * 1000) / 1000,
      simhash: page.simhash,
      body_links: doc.links.filter((l) => l.position === "body").length,
      template_links: doc.links.filter((l) => l.position === "template").length,
      // Why the vector policy reads the page as a generated index (null: it does not). Without
      // the model's tokenizer there are no chunks here; a crawl then gives vectors to the first
      // chunks only, when the page has more than a few.
      index_page: indexEvidence({
        url,
        type: facets.type,
        chunks: 0,
        shape: markdownShape(doc.markdown),
      }),
    },
  };
}

export function inspectCommand(argv: string[]): number {
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
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0 || !values.url) throw new CliError(INSPECT_USAGE);
  let html: Uint8Array;
  try {
    html = readFileSync(file);
  } catch (err) {
    throw new CliError(`error: cannot read ${file}: ${(err as Error).message}`);
  }
  // What the crawler would have booked as notHtml by its type.
  if (html.subarray(0, 4096).includes(0))
    throw new CliError(`error: ${file} is binary data, not an HTML page`);
  const result = inspectPage(html, values.url, parseHeaders(values.header), values.explain);
  console.log(JSON.stringify(result, null, values.compact ? undefined : 2));
  return 0;
}
