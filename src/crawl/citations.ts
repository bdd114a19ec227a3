/**
 * Body citations of a domain, recounted when a crawl ends: links repeated on most of the site's
 * pages are template (navigation, footers, "next" links) wherever extraction placed them, and
 * do not count towards `inlinks_body` or `cited_by`.
 */
import type { Db } from "../db/client.ts";
import { recomputeInlinks, repeatedLinks } from "../db/crawl-repo.ts";
import { TEMPLATE_SHARE } from "../facets/templates.ts";

/** Below this many linking pages nothing is template: two pages sharing a link say nothing. */
export const TEMPLATE_MIN_PAGES = 4;

export function recomputeCitations(db: Db, domain: string): void {
  recomputeInlinks(db, domain, repeatedLinks(db, domain, TEMPLATE_SHARE, TEMPLATE_MIN_PAGES));
}
