/**
 * The text a model reads from each tool: compact markdown with the ids and URLs to follow up,
 * not the HTTP API's JSON (which stays the structured content). JSON repeats every key for every
 * item and escapes every newline of a passage; a 10-hit search was 9.1k characters of it.
 * Pure functions of the service results.
 */

import { counted } from "../plural.ts";
import { anchorsOnly } from "../search/link-anchors.ts";
import type { DomainRecord } from "../services/domains-service.ts";
import type { ListEnvelope } from "../services/envelope.ts";
import type { JobView } from "../services/jobs-service.ts";
import type { SearchResponse } from "../services/search-service.ts";

/** A passage longer than this is cut at a word, with a pointer to the whole page. */
export const PASSAGE_CHARS = 1000;

const number = (n: number) => n.toLocaleString("en-US");

function cut(text: string, max: number): string {
  const flat = text.trim();
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(" ", max);
  return `${flat.slice(0, space > max / 2 ? space : max).trimEnd()} …`;
}

/** Filters and unknown arguments, when there are any: the model sees what was applied. */
function filtersLine(filters: {
  applied: Record<string, unknown>;
  unrecognized: string[];
}): string {
  const applied = Object.entries(filters.applied).map(
    ([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`,
  );
  const parts: string[] = [];
  if (applied.length) parts.push(`Filters: ${applied.join("; ")}.`);
  if (filters.unrecognized.length)
    parts.push(`Not recognized (ignored): ${filters.unrecognized.join(", ")}.`);
  return parts.join(" ");
}

export type SearchHitView = Pick<
  SearchResponse["data"][number],
  "page_id" | "url" | "title" | "domain" | "heading" | "text"
>;

const HEADING_SEPARATOR = " > ";

/**
 * A hit's heading path, after its page's title unless the path starts with the title's own words:
 * "Sorting HOW TO > Sorting Basics", not "Sorting HOW TO — Python 3.11.2 documentation ›
 * Sorting HOW TO > Sorting Basics".
 */
function hitLabel(hit: SearchHitView): string {
  const title = hit.title ?? hit.url;
  if (!hit.heading) return title;
  const first = hit.heading.split(HEADING_SEPARATOR)[0] ?? "";
  return first && title.includes(first) ? hit.heading : `${title} › ${hit.heading}`;
}

/** Links in a passage are read as their anchors: the page's URL is on the line above. */
export function searchText(result: {
  data: readonly SearchHitView[];
  query: string;
  mode: string;
  filters: { applied: Record<string, unknown>; unrecognized: string[] };
  /** A domain in scope is rebuilding its index (search-service.ts `partialOf`). */
  partial?: { reason: string };
}): string {
  const partial = result.partial ? ` Incomplete: ${result.partial.reason}.` : "";
  const head =
    `${counted(result.data.length, "passage")} for "${result.query}" (${result.mode}).${partial} ${filtersLine(result.filters)}`.trim();
  if (result.data.length === 0) {
    return `${head}\nNothing matched: try other words, fewer filters, or list_content to browse.`;
  }
  const blocks = result.data.map((hit, i) => {
    const passage = cut(anchorsOnly(hit.text), PASSAGE_CHARS);
    return `## ${i + 1}. ${hitLabel(hit)}\n${hit.page_id} · ${hit.url}\n\n${passage}`;
  });
  return `${head} Whole page: get_page_markdown(page_id).\n\n${blocks.join("\n\n")}`;
}

interface PageFacets {
  type: string;
  format: string;
  locale: string | null;
  words: number;
  published: string | null;
}

interface PageLine {
  id: string;
  url: string;
  title: string | null;
  domain: string;
  facets: PageFacets;
  metrics: { inlinks_body: number };
}

function pageLine(page: PageLine): string {
  const f = page.facets;
  const bits = [
    page.id,
    `${f.type}/${f.format}`,
    f.locale,
    `${number(f.words)} words`,
    f.published ? `published ${f.published}` : null,
    page.metrics.inlinks_body ? `cited by ${page.metrics.inlinks_body}` : null,
  ].filter((b): b is string => Boolean(b));
  return `- [${page.title ?? page.url}](${page.url}) · ${bits.join(" · ")}`;
}

export function contentText(
  list: ListEnvelope<PageLine> & { partial?: { reason: string } },
): string {
  const from = list.offset + 1;
  const to = list.offset + list.data.length;
  const shown = list.data.length ? `${from}-${to}` : "none";
  const next = to < list.total ? ` Next: offset=${to}.` : "";
  const partial = list.partial ? ` Incomplete: ${list.partial.reason}.` : "";
  const head =
    `${counted(list.total, "page")} match; ${shown} shown, sorted by ${list.sort}.${next}${partial} ${filtersLine(list.filters)}`.trim();
  return [head, ...list.data.map(pageLine)].join("\n");
}

interface PageViewText extends PageLine {
  canonical_url: string | null;
  description: string | null;
  facets: PageFacets & {
    audience: string;
    topics: string[];
    technicality: number;
    depth: number;
    originality: number;
    promotional: number;
    has_code: boolean;
  };
  collections: string[];
  fetched_at: string;
  history: readonly unknown[];
  cited_by: readonly { id: string; title: string | null; url: string }[];
  markdown?: string;
}

export function pageText(page: PageViewText): string {
  const f = page.facets;
  const lines = [
    `# ${page.title ?? page.url}`,
    `${page.id} · ${page.url}${page.canonical_url && page.canonical_url !== page.url ? ` (canonical ${page.canonical_url})` : ""}`,
    page.description ? `> ${page.description}` : "",
    `Domain ${page.domain}${page.collections.length ? `; shelves: ${page.collections.join(", ")}` : ""}. Fetched ${page.fetched_at} (${counted(page.history.length, "fetch", "fetches")} recorded).`,
    `Facets: type ${f.type}, format ${f.format}, audience ${f.audience}, locale ${f.locale ?? "unknown"}, topics ${f.topics.join(", ") || "none"}; ${number(f.words)} words; ${f.has_code ? "has code" : "no code"}; published ${f.published ?? "unknown"}.`,
    `Scores (0-1): technicality ${f.technicality}, depth ${f.depth}, originality ${f.originality}, promotional ${f.promotional}.`,
  ];
  if (page.cited_by.length) {
    const first = page.cited_by.slice(0, 5).map((c) => `${c.title ?? c.url} (${c.id})`);
    const more = page.cited_by.length > 5 ? `, and ${page.cited_by.length - 5} more` : "";
    lines.push(`Cited by ${counted(page.cited_by.length, "page")}: ${first.join("; ")}${more}.`);
  }
  const text = lines.filter(Boolean).join("\n");
  return page.markdown === undefined ? text : `${text}\n\n---\n\n${page.markdown}`;
}

const nonZero = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${number(n)}`)
    .join(", ");

const LINKED_SHOWN = 10;

export function domainText(record: DomainRecord): string {
  const { coverage: c, health: h } = record;
  const lines = [`# ${record.domain}`];
  const estimate = c.estimate
    ? ` The site has an estimated ${c.estimate.low}-${c.estimate.high} public pages (confidence ${c.estimate.confidence}).`
    : "";
  // A crawl narrower than the domain says what its counts cover.
  const scope = c.scope && c.scope.kind !== "domain" ? ` Scope: ${c.scope.label}.` : "";
  lines.push(
    `Coverage: ${number(c.indexed)} pages indexed of ${number(c.known)} URLs known.${estimate}${scope}`,
  );
  if (c.job_id) {
    lines.push(
      `Last job ${c.job_id}: ${c.job_state}. URLs by outcome: ${nonZero(c.buckets) || "none"}.`,
    );
  }
  if (h.search_index?.detail) lines.push(`Search index: ${h.search_index.detail}.`);
  const errorRate = h.error_rate === null ? "" : `, error rate ${(h.error_rate * 100).toFixed(1)}%`;
  lines.push(
    `Health: robots.txt ${h.robots_txt.status}${errorRate}, median response ${h.median_response_s ?? "?"} s; entry ${h.entry_url ?? "unknown"}.`,
  );
  if (record.properties.length) {
    const props = record.properties.map(
      (p) => `${p.locale ?? "?"} ${p.root_url} (${counted(p.pages, "page")})`,
    );
    lines.push(`Locales: ${props.join("; ")}.`);
  }
  if (record.sitemaps.length) {
    const urls = record.sitemaps.reduce((n, s) => n + (s.url_count ?? 0), 0);
    lines.push(`Sitemaps: ${record.sitemaps.length} listing ${number(urls)} URLs.`);
  }
  const ch = record.changes;
  if (ch?.previous_job_id) {
    lines.push(
      `Changes since ${ch.previous_job_id}: ${ch.added.count} added, ${ch.removed.count} removed, ${ch.modified.count} modified.`,
    );
  } else if (ch) {
    lines.push(`First crawl: ${counted(ch.added.count, "page")} added.`);
  }
  if (record.links_to.length) {
    const top = record.links_to
      .slice(0, LINKED_SHOWN)
      .map((l) => `${l.domain} (${counted(l.links, "link")})`);
    const more =
      record.links_to.length > LINKED_SHOWN
        ? `, and ${record.links_to.length - LINKED_SHOWN} more`
        : "";
    lines.push(`Links to: ${top.join(", ")}${more}.`);
  }
  if (record.collections.length) {
    lines.push(
      `Shelves: ${record.collections.map((s) => `${s.slug}${s.reason ? ` (${s.reason})` : ""}`).join(", ")}.`,
    );
  }
  lines.push(
    "All of it: get_domain(full=true). Its pages: list_content(domain) or get_domain_markdown.",
  );
  return lines.join("\n");
}

export function jobText(job: JobView): string {
  const p = job.progress;
  const lines = [
    `Job ${job.id} (${job.domain}): ${job.state}, phase ${p.phase}. Budget ${job.params.budget} pages.`,
    `Progress: ${number(p.indexed)} indexed, ${number(p.pending)} pending, ${number(p.discovered)} discovered, ${number(p.fetched)} fetched in ${p.elapsed_s} s (${p.pages_per_min} pages/min).`,
  ];
  if (p.embedded_chunks !== null) {
    const searchable =
      p.searchable === null ? "" : `; ${number(p.searchable)} pages searchable by meaning`;
    lines.push(
      `Embedding: ${number(p.embedded_chunks)} chunks embedded (${p.chunks_per_s ?? 0}/s)${searchable}.`,
    );
  }
  if (p.eta && p.phase !== "done") lines.push(`ETA: ${p.eta.low_s}-${p.eta.high_s} s.`);
  const buckets = Object.entries(job.coverage.buckets)
    .filter(([, b]) => b.count > 0)
    .map(([name, b]) => {
      const why = b.reasons?.length
        ? ` (${b.reasons.map((r) => `${r.reason} ${r.count}`).join("; ")})`
        : "";
      return `- ${name} ${number(b.count)}: ${b.reason}${why}`;
    });
  lines.push(`Coverage of ${counted(job.coverage.total, "URL")}:`, ...buckets);
  if (job.error) lines.push(`Error: ${job.error}`);
  if (job.cancel_requested) lines.push("Cancel requested.");
  lines.push("Sample URLs per outcome: get_job(full=true).");
  return lines.join("\n");
}

interface FacetView {
  facet: string;
  param: string;
  kind: string;
  definition?: string;
  range?: readonly number[];
  values?: readonly { value: string | boolean; pages: number; definition?: string }[];
}

export function facetsText(
  list: { data: readonly FacetView[]; pages: number },
  definitions: boolean,
): string {
  const lines = [
    `${counted(list.pages, "page")} in scope. Each facet: its filter argument, then values (pages).`,
  ];
  for (const f of list.data) {
    const what = definitions && f.definition ? `: ${f.definition}` : "";
    if (!f.values) {
      const range = f.range ? ` ${f.range[0]}..${f.range[1]}` : "";
      lines.push(`- ${f.facet} (${f.param}, ${f.kind}${range})${what}`);
      continue;
    }
    if (definitions) {
      lines.push(`- ${f.facet} (${f.param})${what}`);
      for (const v of f.values)
        lines.push(`  - ${String(v.value)} (${v.pages})${v.definition ? `: ${v.definition}` : ""}`);
    } else {
      const values = f.values.map((v) => `${String(v.value)} ${v.pages}`).join(", ");
      lines.push(`- ${f.facet} (${f.param}): ${values}`);
    }
  }
  if (!definitions) lines.push("What each value means: list_facets(definitions=true).");
  return lines.join("\n");
}

interface ShelfView {
  slug: string;
  name: string;
  description: string;
  companies: number;
  crawled: number;
}

export function shelvesText(list: ListEnvelope<ShelfView>): string {
  if (list.total === 0) return "No shelves yet. place_on_shelf with a new slug makes one.";
  const lines = list.data.map(
    (s) =>
      `- ${s.slug}: ${s.name}${s.description ? ` (${s.description})` : ""}; ${counted(s.companies, "company", "companies")}, ${s.crawled} crawled`,
  );
  return [`${counted(list.total, "shelf", "shelves")}:`, ...lines].join("\n");
}

interface MemberView {
  domain: string;
  reason: string;
  placed_by: string;
  placed_at: string;
  pages: number;
}

export function shelfText(shelf: ShelfView & { members: readonly MemberView[] }): string {
  const head = `# ${shelf.name} (${shelf.slug})${shelf.description ? `\n${shelf.description}` : ""}\n${counted(shelf.companies, "company", "companies")}, ${shelf.crawled} crawled:`;
  const lines = shelf.members.map(
    (m) =>
      `- ${m.domain}${m.reason ? `: ${m.reason}` : ""} (placed by ${m.placed_by} ${m.placed_at.slice(0, 10)}; ${counted(m.pages, "page")})`,
  );
  return [head, ...lines].join("\n");
}

export function crawlText(job: { job_id: string; domain: string }): string {
  return `Crawl of ${job.domain} queued as ${job.job_id}. Follow it with get_job(job_id="${job.job_id}").`;
}

export function placedText(
  slug: string,
  member: MemberView & { created: boolean },
  shelfCreated: boolean,
): string {
  const shelf = shelfCreated ? `new shelf ${slug}` : `shelf ${slug}`;
  const what = member.created ? "placed on" : "already on";
  const reason = member.reason ? ` Reason: ${member.reason}.` : "";
  return `${member.domain} ${what} ${shelf} (placed by ${member.placed_by}).${reason}`;
}

/** read_url: title, URL, a facets line, then the markdown part and how to read on. */
export function readUrlText(part: {
  url: string;
  title: string | null;
  facets: {
    type: string;
    format: string;
    audience: string;
    locale: string | null;
    topics: readonly string[];
    words: number;
    published: string | null;
  };
  markdown: string;
  offset: number;
  total_chars: number;
  truncated: boolean;
  next_offset: number | null;
}): string {
  const f = part.facets;
  const lines = [
    `# ${part.title ?? part.url}`,
    `${part.url} (fetched now, not stored)`,
    `Facets: type ${f.type}, format ${f.format}, audience ${f.audience}, locale ${f.locale ?? "unknown"}, topics ${f.topics.join(", ") || "none"}; ${number(f.words)} words; published ${f.published ?? "unknown"}.`,
    "",
    part.markdown,
  ];
  if (part.truncated) {
    lines.push(
      "",
      `[truncated: characters ${part.offset}..${part.next_offset} of ${part.total_chars} shown; call again with offset=${part.next_offset} or a larger max_chars for more]`,
    );
  }
  return lines.join("\n");
}
