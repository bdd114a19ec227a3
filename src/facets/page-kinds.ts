/**
 * Kinds of page that several rules recognise the same way: forum and Q&A threads, wiki
 * articles. Patterns as strings (type-patterns.ts puts them in its tables) and predicates.
 */
import type { ExtractedDocument } from "../extract/document.ts";
import type { Signals } from "./signals.ts";
import { uRegex } from "./unicode-regex.ts";
import { urlParts } from "./url-parts.ts";

export const FORUM_PATH = String.raw`/(threads?|forums?|foren|board|viewtopic\.php|showthread\.php|questions/\d+|comments/\w+|t/[^/]+/\d+)(/|\.|$)|/forum/`;
export const FORUM_HOST = String.raw`^(forums?|foren|discuss|answers)\.`;
export const FAN_WIKI_HOST = String.raw`(^|\.)(fandom\.com|wikidot\.com|wikia\.com)$`;
const FORUM_LD = ["discussionforumposting", "qapage", "question"];

const forumPath = uRegex(FORUM_PATH);
const forumHost = uRegex(FORUM_HOST);
const fanWikiHost = uRegex(FAN_WIKI_HOST);
const wikiTitle = uRegex(String.raw`\bwiki\b`, "i");

/** A thread of a forum or Q&A site: markup, path or host say so. */
export function isForumThread(url: string, sig: Signals): boolean {
  const { path, host } = urlParts(url);
  return FORUM_LD.some((t) => sig.jsonld.has(t)) || forumPath.test(path) || forumHost.test(host);
}

export function isWikiPage(url: string, title: string): boolean {
  return fanWikiHost.test(urlParts(url).host) || wikiTitle.test(title);
}

/** A list of pages: at least `LINK_LIST_MIN` distinct body links titled in four words or more
 * (headlines, post or product names), their words at least `LINK_LIST_SHARE` of the page's. */
export const LINK_LIST_MIN = 10;
export const LINK_LIST_SHARE = 0.3;

/** How many titled body links the page has and their share of its words. */
export function titledLinks(doc: ExtractedDocument): { count: number; share: number } {
  const seen = new Set<string>();
  let count = 0;
  let words = 0;
  for (const l of doc.links) {
    if (l.position !== "body" || seen.has(l.url)) continue;
    seen.add(l.url);
    const n = l.anchorText.split(/\s+/).filter(Boolean).length;
    if (n >= 4) {
      count++;
      words += n;
    }
  }
  return { count, share: words / Math.max(doc.words, 1) };
}

/** The page is a list of other pages: repeated titled links make most of its text. */
export function isLinkList(doc: ExtractedDocument): boolean {
  const t = titledLinks(doc);
  return t.count >= LINK_LIST_MIN && t.share >= LINK_LIST_SHARE;
}
