/**
 * A company's pages as one markdown file that forms a tree: a YAML frontmatter block (domain,
 * pages_included, pages_left_out, filters), then each page as a level-1 heading (its title) with
 * its source URL and its body, every heading of the body demoted one level, then a closing line
 * stating how many pages it left out.
 *
 * `domainBundle` validates at once (errors before the first byte) and returns a lazy iterator
 * that reads the bodies in batches, so the HTTP adapter streams bundles of any size.
 */
import {
  type BundleFilter,
  type BundlePage,
  bundlePageIds,
  bundlePages,
} from "../db/bundle-repo.ts";
import type { Db } from "../db/client.ts";
import { TYPE_VALUES } from "../facets/vocabulary.ts";
import { counted } from "../plural.ts";
import { isoNow } from "./clock.ts";
import { requireDomain } from "./domains-service.ts";
import { demoteHeadings } from "./markdown-headings.ts";
import { splitList } from "./params.ts";

const BATCH = 20;

export interface BundleArgs {
  limit?: number;
  type?: string;
  technicality_min?: number;
}

export interface BundleFilters {
  limit: number;
  type?: string[];
  technicality_min?: number;
}

const oneLine = (text: string | null) => (text ?? "").split(/\s+/).filter(Boolean).join(" ");

export function renderPage(page: BundlePage): string {
  const title = oneLine(page.title) || page.url;
  const body = demoteHeadings(page.markdown.replace(/^\n+|\n+$/g, ""));
  return `# ${title}\n\nSource: <${page.url}>\n\n${body}\n\n`;
}

function frontmatter(domain: string, included: number, leftOut: number, filters: BundleFilters) {
  const data = {
    domain,
    pages_included: included,
    pages_left_out: leftOut,
    filters,
    generated_at: isoNow(),
  };
  return `---\n${Bun.YAML.stringify(data, null, 2).trimEnd()}\n---\n\n`;
}

function closing(domain: string, included: number, leftOut: number): string {
  const hint = leftOut ? " (raise limit or narrow the filters to see them)" : "";
  return `---\n\n*${counted(included, "page")} of ${domain} included; pages_left_out: ${leftOut}${hint}.*\n`;
}

export interface Bundle {
  readonly domain: string;
  readonly included: number;
  readonly leftOut: number;
  readonly filters: BundleFilters;
  /** The text in parts: frontmatter, one part per page, the closing line. */
  readonly parts: () => Generator<string>;
}

export function domainBundle(
  db: Db,
  rawDomain: string,
  args: BundleArgs,
  options: { allowPrivateSuffixes: boolean; param?: string },
): Bundle {
  const types = splitList("type", args.type, TYPE_VALUES);
  const limit = args.limit ?? 100;
  const technicalityMin = args.technicality_min ?? null;
  const domain = requireDomain(db, rawDomain, options.allowPrivateSuffixes, options.param);
  const filter: BundleFilter = { domain, types, technicalityMin };
  const { ids, total } = bundlePageIds(db, filter, limit);
  const filters: BundleFilters = { limit };
  if (types.length) filters.type = types;
  if (technicalityMin !== null) filters.technicality_min = technicalityMin;
  const included = ids.length;
  const leftOut = total - included;
  return {
    domain,
    included,
    leftOut,
    filters,
    *parts() {
      yield frontmatter(domain, included, leftOut, filters);
      for (let i = 0; i < ids.length; i += BATCH) {
        for (const page of bundlePages(db, ids.slice(i, i + BATCH))) yield renderPage(page);
      }
      yield closing(domain, included, leftOut);
    },
  };
}

/** The bundle as a byte stream, one batch of pages per pull. */
export function bundleStream(bundle: Bundle): ReadableStream<Uint8Array> {
  const parts = bundle.parts();
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      let chunk = "";
      for (let i = 0; i < BATCH + 1; i++) {
        const next = parts.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      parts.return(undefined);
    },
  });
}

/** The whole bundle as one string (MCP pages through it with offset and max_chars). */
export function bundleText(bundle: Bundle): string {
  return [...bundle.parts()].join("");
}
