/**
 * Kinds of page that several rules recognise the same way: forum and Q&A threads, wiki
 * articles. Patterns as strings (type-patterns.ts puts them in its tables) and predicates.
 */
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
