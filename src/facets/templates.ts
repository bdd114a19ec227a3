/**
 * Template links: a (target, anchor) pair repeated on most of a site's pages is part of the
 * page template (a "Next" link, a sidebar), wherever extraction placed it. Such links do not
 * count as body citations (`inlinks_body`, `cited_by`); the store counts the same thing in SQL
 * over a whole domain, this is the rule on lists of links.
 */
import type { Link } from "../extract/document.ts";

/** Share of pages above which a repeated link is template. */
export const TEMPLATE_SHARE = 0.5;

/** Anchor text as template keys compare it: whitespace collapsed, case folded. */
export function normalizeAnchor(text: string): string {
  return text.split(/\s+/).filter(Boolean).join(" ").toLowerCase();
}

export function templateKey(url: string, anchor: string): string {
  return `${url}\u0000${normalizeAnchor(anchor)}`;
}

/**
 * `templateKey(url, anchor)` of the pairs found on more than `share` of the pages (each page
 * counts once per pair). Below `minPages` pages nothing is template: two pages sharing a link
 * say nothing about the template.
 */
export function templateLinkKeys(
  pages: Iterable<readonly Link[]>,
  { share = TEMPLATE_SHARE, minPages = 3 }: { share?: number; minPages?: number } = {},
): Set<string> {
  const counts = new Map<string, number>();
  let n = 0;
  for (const links of pages) {
    n++;
    for (const key of new Set(links.map((l) => templateKey(l.url, l.anchorText)))) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const out = new Set<string>();
  if (n < minPages) return out;
  for (const [key, c] of counts) if (c / n > share) out.add(key);
  return out;
}
