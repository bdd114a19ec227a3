/**
 * Published date (`YYYY-MM-DD`) of a page: an ISO date in its date metadata (meta tags, JSON-LD)
 * first. Then, on documentation pages, the first `<time datetime>` with a date, else a
 * `/YYYY/MM/DD/` date in the URL; on other pages, htmldate's fast heuristics (page-date.ts), as
 * the reference does; a documentation page with neither may still say "Release date: 2023-11-09"
 * near its top (release notes). Never today's date by default.
 */
import { bylineDate } from "./byline-date.ts";
import { dateRange, inRange, makeDate } from "./date-expressions.ts";
import type { DomDocument } from "./dom.ts";
import { type PageDateStep, pageDateOf } from "./page-date.ts";

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

/** Where a page's date came from (evaluations break their errors down by it). */
export type DateSource = "byline" | "metadata" | "docs" | `page:${PageDateStep}` | "labeled";

export interface DatedBy {
  readonly day: string;
  readonly source: DateSource;
}

export interface DateSources {
  /** The date of the page's metadata, as written. */
  readonly metadata: string | null;
  readonly timeValues: readonly string[];
  readonly url: string;
  /** Documentation pages (a docs container): htmldate's heuristics are not run. */
  readonly docs: boolean;
  /** A documentation generator's page: the text beside its heading is not read either. */
  readonly generated: boolean;
  readonly doc: DomDocument;
  readonly html: string;
  /** The page's title (picks its main heading when it has several `<h1>`). */
  readonly title: string | null;
  /** The page's declared language (how it writes numeric dates). */
  readonly language: string | null;
}

/** A declared date a day after the URL's `/YYYY/MM/DD/` is the same moment written in UTC: the
 * URL's day is the one the page's own calendar gives. */
function localDay(declared: string, url: string, today: Date): string {
  const m = URL_DATE.exec(url);
  const fromUrl = m ? valid(Number(m[1]), Number(m[2]), Number(m[3]), today) : null;
  if (fromUrl === null) return declared;
  const gap = (Date.parse(declared) - Date.parse(fromUrl)) / 86_400_000;
  return gap === 1 ? fromUrl : declared;
}

const by = (day: string | null, source: DateSource): DatedBy | null =>
  day === null ? null : { day, source };

/** The published date of a page and where it came from (the tree must be the unchanged parse
 * of `html`). */
export function publishedDateOf(src: DateSources, today = new Date()): DatedBy | null {
  const declared = src.metadata === null ? null : parseIsoDate(src.metadata, today);
  if (declared) return by(localDay(declared, src.url, today), "metadata");
  // A documentation generator's pages keep to their metadata, <time> and URL: a date in their
  // text is most often a release's or an example's.
  const shown = src.generated
    ? null
    : bylineDate(src.doc, src.title, dateRange(today), src.language);
  if (shown) return by(shown.date.day, "byline");
  if (src.docs) return by(docsDate(src.timeValues, src.url, today), "docs");
  const guessed = pageDateOf(src.doc, src.html, src.url, today, { keyedStamps: true });
  return guessed === null ? null : { day: guessed.day, source: `page:${guessed.step}` };
}

/** The published date of a page (the tree must be the unchanged parse of `html`). */
export function publishedDate(src: DateSources, today = new Date()): string | null {
  return publishedDateOf(src, today)?.day ?? null;
}

/** Near the top of a text: an ISO date labeled as the page's date. */
const LABELED_DATE =
  /\b(?:release|publication|published|last updated|updated|revision) ?(?:date|on)?\s*:\s*(\d{4}-\d{2}-\d{2})\b/i;

/** The date a documentation page's text gives itself near its top ("Release date: 2023-11-09"). */
export function labeledDate(text: string, today = new Date()): string | null {
  const m = LABELED_DATE.exec(text.slice(0, 1500));
  return m?.[1] ? parseIsoDate(m[1], today) : null;
}
