/**
 * Published date (`YYYY-MM-DD`) of a page: an ISO date in its date metadata (meta tags, JSON-LD)
 * first. Then, on documentation pages, the first `<time datetime>` with a date, else a
 * `/YYYY/MM/DD/` date in the URL; on other pages, htmldate's fast heuristics (page-date.ts), as
 * the reference does; a documentation page with neither may still say "Release date: 2023-11-09"
 * near its top (release notes). Never today's date by default.
 */
import { dateRange, inRange, makeDate } from "./date-expressions.ts";
import type { DomDocument } from "./dom.ts";
import { pageDate } from "./page-date.ts";

const ISO_DATE = /(\d{4})-(\d{2})-(\d{2})/;
const URL_DATE = /\/((?:19|20)\d{2})\/(\d{1,2})\/(\d{1,2})\//;

function valid(y: number, m: number, d: number, today: Date): string | null {
  return inRange(makeDate(y, m, d), dateRange(today))?.day ?? null;
}

/** The first ISO date in `raw`, when it is a real date between 1995 and `today`. */
export function parseIsoDate(raw: string, today = new Date()): string | null {
  const m = ISO_DATE.exec(raw);
  return m ? valid(Number(m[1]), Number(m[2]), Number(m[3]), today) : null;
}

/** A documentation page's date: its first `<time datetime>` with one, else its URL's. */
export function docsDate(timeValues: readonly string[], url: string, today = new Date()) {
  for (const value of timeValues) {
    const found = parseIsoDate(value, today);
    if (found) return found;
  }
  const m = URL_DATE.exec(url);
  return m ? valid(Number(m[1]), Number(m[2]), Number(m[3]), today) : null;
}

export interface DateSources {
  /** The date of the page's metadata, as written. */
  readonly metadata: string | null;
  readonly timeValues: readonly string[];
  readonly url: string;
  /** Documentation pages: the tree and source are not searched. */
  readonly docs: boolean;
  readonly doc: DomDocument;
  readonly html: string;
}

/** The published date of a page (the tree must be the unchanged parse of `html`). */
export function publishedDate(src: DateSources, today = new Date()): string | null {
  const declared = src.metadata === null ? null : parseIsoDate(src.metadata, today);
  if (declared) return declared;
  if (src.docs) return docsDate(src.timeValues, src.url, today);
  return pageDate(src.doc, src.html, src.url, today);
}

/** Near the top of a text: an ISO date labeled as the page's date. */
const LABELED_DATE =
  /\b(?:release|publication|published|last updated|updated|revision) ?(?:date|on)?\s*:\s*(\d{4}-\d{2}-\d{2})\b/i;

/** The date a documentation page's text gives itself near its top ("Release date: 2023-11-09"). */
export function labeledDate(text: string, today = new Date()): string | null {
  const m = LABELED_DATE.exec(text.slice(0, 1500));
  return m?.[1] ? parseIsoDate(m[1], today) : null;
}
