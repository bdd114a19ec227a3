/**
 * The original (publication) date of a page that is not documentation, found as the reference
 * finds it: htmldate's fast mode (`find_date(original_date=True, extensive_search=False)`),
 * ported to our tree. In order, the first that answers:
 * 1. a Y/M/D date in the URL;
 * 2. the head's meta tags (publication names first; modification dates, og:url and the
 *    copyright year only as a reserve), then `"datePublished"` in JSON-LD;
 * 3. `<abbr>` dates (Facebook's data-utime, `class="published"`);
 * 4. the first words of elements whose id/class/itemprop speak of dates, metadata, publication
 *    or footers (and every `<footer>`, `<small>`), then `<title>` and `<h1>`;
 * 5. the oldest `<time>` (a `pubdate` or `entry-date` one at once);
 * 6. a full timestamp anywhere in the HTML, a date in og:image's URL, "Posted on 12/10/2017"-like
 *    phrases; last, a bare ISO date in the page's text.
 * Never today's date by default. Media, frames, forms' labels and the Wayback Machine's banner
 * are not read, as htmldate cleans them first.
 */
import {
  ALWAYS_TAGS,
  abbrDate,
  CLEANED,
  examineElements,
  FAST_TAGS,
  isDateCandidate,
  isWaybackBanner,
  timeDate,
  walk,
} from "./date-elements.ts";
import {
  DAY,
  type DateRange,
  dateRange,
  dmy,
  type FoundDate,
  inRange,
  MONTH,
  makeDate,
  YEAR,
} from "./date-expressions.ts";
import type { DomDocument, DomElement, DomNode } from "./dom.ts";
import { metaDate, urlDate } from "./meta-date.ts";

const TIME_TZ = "[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?";
const TIMESTAMP = new RegExp(`(${YEAR}-${MONTH}-${DAY})(${TIME_TZ})`);
const TIMESTAMPS = new RegExp(TIMESTAMP.source, "g");
/** What precedes a timestamp that names it a publication's ("datePublished": "…",
 * `published_time" content="…`, `"date":"…`); modification, upload, delivery or creation stamps
 * of a page's scripts are not. */
const PUBLICATION_KEYS =
  /^(?:date|(?:[a-z]+[_:-])?(?:date[_-]?published|published[_-]?(?:date|time|at|on)?|publish[_-]?(?:date|time|at|on)|pub[_-]?date|post[_-]?date|date[_-]?posted))$/;
const STAMP_KEY = /([a-z][a-z_:-]*)[^a-z0-9]{0,24}$/;

/** The first timestamp of the source that a publication key names. */
function keyedStamp(source: string, range: DateRange): FoundDate | null {
  TIMESTAMPS.lastIndex = 0;
  let n = 0;
  for (let m = TIMESTAMPS.exec(source); m !== null && n++ < 500; m = TIMESTAMPS.exec(source)) {
    const before = source.slice(Math.max(0, m.index - 40), m.index).toLowerCase();
    const key = STAMP_KEY.exec(before)?.[1] ?? "";
    if (!PUBLICATION_KEYS.test(key)) continue;
    const found = m[1] ? ymdString(m[1], range) : null;
    if (found) return found;
  }
  return null;
}

const LOOSE_TIMESTAMP = new RegExp(`(${YEAR}-${MONTH}-${DAY})(?:${TIME_TZ})?`);
const DATE_CORE = /[0-9]{1,4}[./][0-9]{1,2}[./][0-9]{2,4}/g;
const PHRASE =
  /(?:date[^0-9"]{0,20}|updated|last-modified|published|posted|on)[ :]{0,9}?([0-9]{1,4})[./]([0-9]{1,2})[./]([0-9]{2,4})|(?:Datum|Stand|Veröffentlicht am):? ?([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{2,4})|(?:güncellen?me|yayı(?:m|n)lan?ma) {0,9}?(?:tarihi)? {0,9}?:? {0,9}?([0-9]{1,2})[./]([0-9]{1,2})[./]([0-9]{2,4})|([0-9]{1,2})[./]([0-9]{1,2})[./]([0-9]{2,4}) {0,9}?(?:'de|'da|'te|'ta|’de|’da|’te|’ta|tarihinde) {0,9}(?:güncellendi|yayı(?:m|n)landı)/gi;

/** A Y-M-D string (parts maybe unpadded) as a date in range. */
function ymdString(s: string, range: DateRange): FoundDate | null {
  const [y, m, d] = s.split(/\D/).map(Number);
  return inRange(makeDate(y ?? 0, m ?? 0, d ?? 0), range);
}

/** "Posted on 12/10/2017", "Datum: 12.10.2017"-like phrases near a numeric date. */
function phraseDate(html: string, range: DateRange): FoundDate | null {
  let match: RegExpExecArray | null = null;
  DATE_CORE.lastIndex = 0;
  let cores = 0;
  let capped = false;
  for (let core = DATE_CORE.exec(html); core !== null; core = DATE_CORE.exec(html)) {
    if (cores++ >= 1000) {
      capped = true;
      break;
    }
    const start = Math.max(0, core.index - 60);
    PHRASE.lastIndex = 0;
    if (PHRASE.test(html.slice(start, core.index + core[0].length + 60))) {
      PHRASE.lastIndex = start;
      match = PHRASE.exec(html);
      break;
    }
  }
  if (capped) {
    PHRASE.lastIndex = 0;
    match = PHRASE.exec(html);
  }
  if (match === null) return null;
  const parts = match.slice(1).filter((p): p is string => p !== undefined && p !== "");
  const [a, b, c] = parts.map(Number);
  if (a === undefined || b === undefined || c === undefined) return null;
  return inRange(parts[0]?.length === 4 ? makeDate(a, b, c) : dmy(a, b, c), range);
}

/** The first bare ISO date of the page's text (scripts and styles left out); only the first is
 * considered. */
function textDate(doc: DomDocument, range: DateRange): FoundDate | null {
  const root = doc.documentElement;
  if (root === null) return null;
  let found: RegExpExecArray | null = null;
  const scan = (n: DomNode): boolean => {
    for (let c = n.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3) {
        found = LOOSE_TIMESTAMP.exec((c as DomNode & { data: string }).data);
        if (found) return false;
      } else if (c.nodeType === 1) {
        const tag = (c as DomElement).localName;
        if (
          tag === "script" ||
          tag === "style" ||
          CLEANED.has(tag) ||
          isWaybackBanner(c as DomElement)
        )
          continue;
        if (!scan(c)) return false;
      }
    }
    return true;
  };
  scan(root);
  const m = found as RegExpExecArray | null;
  return m?.[1] ? ymdString(m[1], range) : null;
}

/** The step of htmldate's heuristics that gave a page's date. */
export type PageDateStep =
  | "url"
  | "meta"
  | "abbr"
  | "elements"
  | "title"
  | "time"
  | "stamp"
  | "image"
  | "phrase"
  | "text";

/** The page's original date (`YYYY-MM-DD`), or null. `html`: the page's source text. */
export function pageDate(
  doc: DomDocument,
  html: string,
  url: string,
  today = new Date(),
): string | null {
  return pageDateOf(doc, html, url, today)?.day ?? null;
}

/** `pageDate` and the step that gave it. `keyedStamps`: a timestamp anywhere in the source
 * counts only when a publication key names it (htmldate takes the first, whatever it stamps). */
export function pageDateOf(
  doc: DomDocument,
  html: string,
  url: string,
  today = new Date(),
  opts: { readonly keyedStamps?: boolean } = {},
): { readonly day: string; readonly step: PageDateStep } | null {
  const range = dateRange(today);
  const root = doc.documentElement;
  if (root === null) return null;
  const at = (found: FoundDate | null, step: PageDateStep) =>
    found === null ? null : { day: found.day, step };
  const fromUrl = urlDate(url, range);
  if (fromUrl) return at(fromUrl, "url");
  const head = metaDate(root, range);
  if (head) return at(head, "meta");

  const abbrs: DomElement[] = [];
  const candidates: DomElement[] = [];
  const titles: DomElement[] = [];
  const times: DomElement[] = [];
  let ogImage: string | null = null;
  walk(root, (el) => {
    const tag = el.localName;
    if (tag === "abbr") abbrs.push(el);
    else if (tag === "title" || tag === "h1") titles.push(el);
    else if (tag === "meta" && ogImage === null && el.getAttribute("property") === "og:image")
      ogImage = el.getAttribute("content");
    if (tag === "time") times.push(el);
    if (ALWAYS_TAGS.has(tag) || (FAST_TAGS.has(tag) && isDateCandidate(el))) candidates.push(el);
  });
  const found =
    at(abbrDate(abbrs, range), "abbr") ??
    at(examineElements(candidates, range), "elements") ??
    at(examineElements(titles, range), "title") ??
    at(timeDate(times, range), "time");
  if (found) return found;
  // The source as a serialization of its tree has it: what follows </html> (a cache plugin's
  // "served at" comment) is not part of it. Only the first timestamp is considered.
  const end = html.lastIndexOf("</html>");
  const source = end > 0 ? html.slice(0, end) : html;
  const stamp = opts.keyedStamps ? null : TIMESTAMP.exec(source);
  const stamped = opts.keyedStamps
    ? keyedStamp(source, range)
    : stamp?.[1]
      ? ymdString(stamp[1], range)
      : null;
  if (stamped) return at(stamped, "stamp");
  return (
    at(urlDate(ogImage, range), "image") ??
    at(phraseDate(source, range), "phrase") ??
    at(textDate(doc, range), "text")
  );
}
