/**
 * Elements that may carry a page's date, read as htmldate reads them: the first words of
 * elements whose id/class/itemprop speak of dates, metadata, publication or footers, `<abbr>`
 * and `<time>` dates. Subtrees htmldate cleans first (media, frames, forms' labels, the Wayback
 * Machine's banner) are not read.
 */
import {
  collapse,
  type DateRange,
  dateExpression,
  type FoundDate,
  inRange,
  makeDate,
  older,
} from "./date-expressions.ts";
import { type DomElement, type DomNode, walkElements } from "./dom.ts";

/** Not read (htmldate's cleaning list). */
export const CLEANED = new Set(
  (
    "applet audio canvas datalist embed frame frameset iframe label map math noframes object " +
    "picture rdf svg track video"
  ).split(" "),
);
export const FAST_TAGS = new Set(["div", "h2", "h3", "h4", "li", "p", "span", "time", "ul"]);
export const ALWAYS_TAGS = new Set(["footer", "small"]);
const MAX_CANDIDATES = 1000;
const MIN_SEGMENT = 6;
const MAX_SEGMENT = 52;
const ID_CLASS_CUES = /[Mm]eta|time|publish|footer/;
const CLASS_CUES =
  /info|post_detail|block-content|byline|subline|posted|submitted|created-post|publication|author|autor|field-content|fa-clock-o|fa-calendar|fecha|parution/;
/** Elements below `root` in document order, cleaned subtrees left out. */
export function walk(root: DomNode, visit: (el: DomElement) => void): void {
  walkElements(root, (el) => {
    if (CLEANED.has(el.localName) || isWaybackBanner(el)) return false;
    visit(el);
    return true;
  });
}

export function isWaybackBanner(el: DomElement): boolean {
  if (el.localName !== "div") return false;
  const id = el.getAttribute("id");
  return id === "wm-ipp-base" || id === "wm-ipp";
}

/** The text of an element without its cleaned parts, cut once `limit` characters are collapsed
 * (only the first words of an element are read). */
function leadingText(el: DomElement, limit = MAX_SEGMENT + 1): string {
  let out = "";
  let checkAt = limit;
  const take = (n: DomNode): boolean => {
    for (let c = n.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3) {
        out += (c as DomNode & { data: string }).data;
        if (out.length >= checkAt) {
          if (collapse(out).length >= limit) return false;
          checkAt = out.length * 2;
        }
      } else if (c.nodeType === 1) {
        const tag = (c as DomElement).localName;
        if (!CLEANED.has(tag) && !take(c)) return false;
      }
    }
    return true;
  };
  take(el);
  return out;
}

/** Text before an element's first child (lxml's `.text`). */
function ownLeadingText(el: DomElement): string | null {
  let out: string | null = null;
  for (let c = el.firstChild; c !== null && c.nodeType !== 1; c = c.nextSibling) {
    if (c.nodeType === 3) out = (out ?? "") + (c as DomNode & { data: string }).data;
  }
  return out;
}

/** Element ids, classes and itemprops that speak of a date (htmldate's candidate test). */
export function isDateCandidate(el: DomElement): boolean {
  let first: string | null = null;
  let itemprop: string | null = null;
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i];
    if (a === undefined) continue;
    if (a.name === "itemprop") itemprop = a.value;
    else if (first === null && (a.name === "id" || a.name === "class")) first = a.value;
  }
  for (const cue of [first, itemprop]) {
    if (cue === null) continue;
    const folded = cue.replaceAll("D", "d");
    if (folded.includes("date") || folded.includes("datum")) return true;
  }
  if (first === null) return false;
  if (ID_CLASS_CUES.test(first)) return true;
  const cls = el.getAttribute("class");
  if (cls !== null && CLASS_CUES.test(cls)) return true;
  return el.getAttribute("id")?.includes("footer-info-lastmod") === true;
}

/** A date in the first words of a text (trailing non-digits dropped). */
function examineText(text: string, range: DateRange): FoundDate | null {
  const s = collapse(text);
  if (s.length <= MIN_SEGMENT) return null;
  return dateExpression(s.slice(0, MAX_SEGMENT).replace(/\D+$/, ""), range);
}

export function examineElements(elements: DomElement[], range: DateRange): FoundDate | null {
  if (elements.length === 0 || elements.length > MAX_CANDIDATES) return null;
  for (const el of elements) {
    const found =
      examineText(leadingText(el), range) ?? examineText(el.getAttribute("title") ?? "", range);
    if (found) return found;
  }
  return null;
}

export function abbrDate(abbrs: DomElement[], range: DateRange): FoundDate | null {
  if (abbrs.length === 0 || abbrs.length > MAX_CANDIDATES) return null;
  let oldest: FoundDate | null = null;
  for (const el of abbrs) {
    const utime = el.getAttribute("data-utime");
    if (utime !== null) {
      const seconds = Number(utime.trim());
      if (utime.trim() === "" || !Number.isInteger(seconds)) continue;
      const d = new Date(seconds * 1000);
      if (Number.isNaN(d.getTime())) continue;
      const iso = d.toISOString();
      const found = inRange(
        makeDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), iso.slice(11, 19)),
        range,
      );
      if (found) oldest = older(oldest, found);
      continue;
    }
    const cls = el.getAttribute("class");
    if (cls !== "date-published" && cls !== "published" && cls !== "time published") continue;
    const title = el.getAttribute("title");
    if (title !== null) {
      const found = dateExpression(title, range);
      if (found) return found;
    } else {
      const text = ownLeadingText(el);
      const found = text !== null && text.length > 10 ? dateExpression(text, range) : null;
      if (found) oldest = older(oldest, found);
    }
  }
  return oldest ?? examineElements(abbrs, range);
}

export function timeDate(times: DomElement[], range: DateRange): FoundDate | null {
  if (times.length === 0 || times.length > MAX_CANDIDATES) return null;
  let oldest: FoundDate | null = null;
  for (const el of times) {
    const datetime = el.getAttribute("datetime") ?? "";
    if (datetime.length > 6) {
      const cls = el.getAttribute("class") ?? "";
      const found = dateExpression(datetime, range);
      if (el.getAttribute("pubdate") === "pubdate" || /^entry-(?:date|time)/.test(cls)) {
        if (found) return found;
      } else if (found) oldest = older(oldest, found);
    } else {
      const text = ownLeadingText(el);
      const found = text !== null && text.length > 6 ? dateExpression(text, range) : null;
      if (found) oldest = older(oldest, found);
    }
  }
  return oldest;
}
