/**
 * The publication date a page's metadata gives, read as htmldate reads it for an original date:
 * meta tags in document order (names of publication dates win at once; modification dates,
 * og:url's date, an `http-equiv="last-modified"` and `itemprop="copyrightYear"` are kept as a
 * reserve), then `"datePublished"` in JSON-LD.
 */
import {
  DAY,
  type DateRange,
  dateExpression,
  type FoundDate,
  inRange,
  MONTH,
  makeDate,
  YEAR,
} from "./date-expressions.ts";
import { type DomElement, elementsByTag, textOf } from "./dom.ts";

const URL_DATE = new RegExp(`\\D(${YEAR})[/_-](${MONTH})[/_-](${DAY})(?:\\D|$)`);

/** A Y/M/D date in a URL (`/2019/11/20/`, `-2019-11-20`, `_2019_11_20`). */
export function urlDate(url: string | null | undefined, range: DateRange): FoundDate | null {
  const m = url ? URL_DATE.exec(url) : null;
  return m ? inRange(makeDate(Number(m[1]), Number(m[2]), Number(m[3])), range) : null;
}

const DATE_NAMES = new Set(
  (
    "analyticsattributes.articledate article.created article_date_original article:post_date " +
    "article.published article:published article:published_date article:published_time " +
    "article:publicationdate bt:pubdate citation_date citation_publication_date " +
    "content_create_date created cxenseparse:recs:publishtime date date_created date_published " +
    "datecreated dateposted datepublished dc.date dc.created dc.date.created dc.date.issued " +
    "dc.date.publication dcsext.articlefirstpublished dcterms.created dcterms.date " +
    "dcterms.issued dc:created dc:date displaydate doc_date field-name-post-date gentime " +
    "mediator_published_time meta og:article:published og:article:published_time " +
    "og:datepublished og:pubdate og:publish_date og:published_time og:question:published_time " +
    "og:regdate originalpublicationdate parsely-pub-date pdate ptime pubdate publishdate " +
    "publish_date publish_time publish-date published-date published_date published_time " +
    "publisheddate publication_date rbpubdate release_date rnews:datepublished sailthru.date " +
    "shareaholic:article_published_time timestamp twt-published-at video:release_date " +
    "vr:published_time"
  ).split(" "),
);
const MODIFIED_NAMES = new Set(
  "lastdate lastmod lastmodified last-modified modified utime".split(" "),
);
const MODIFIED_PROPERTIES = new Set(
  (
    "article:modified article:modified_date article:modified_time article:post_modified " +
    "bt:moddate datemodified dc.modified dcterms.modified lastmodified modified_time " +
    "modificationdate og:article:modified_time og:modified_time og:updated_time release_date " +
    "revision_date updated_time"
  ).split(" "),
);
const ITEMPROP_ORIGINAL = new Set(["datecreated", "datepublished", "pubyear"]);

const JSON_PUBLISHED = new RegExp(`"datePublished": ?"(${YEAR}-${MONTH}-${DAY})`, "i");

/** What one meta tag says: a publication date, a reserve date, or nothing. */
function readMetaTag(el: DomElement, range: DateRange): [FoundDate | null, FoundDate | null] {
  const content = el.getAttribute("content");
  const name = el.getAttribute("name");
  if (name !== null) {
    const key = name.toLowerCase();
    if (key === "og:url") return [null, urlDate(content, range)];
    if (DATE_NAMES.has(key)) return [dateExpression(content, range), null];
    if (MODIFIED_NAMES.has(key)) return [null, dateExpression(content, range)];
    return [null, null];
  }
  const property = el.getAttribute("property");
  if (property !== null) {
    const key = property.toLowerCase();
    if (DATE_NAMES.has(key)) return [dateExpression(content, range), null];
    if (MODIFIED_PROPERTIES.has(key)) return [null, dateExpression(content, range)];
    return [null, null];
  }
  const itemprop = el.getAttribute("itemprop");
  if (itemprop !== null) {
    const key = itemprop.toLowerCase();
    if (ITEMPROP_ORIGINAL.has(key)) {
      return [dateExpression(el.getAttribute("datetime") || content, range), null];
    }
    if (key === "copyrightyear" && content !== null && /^\d{4}$/.test(content)) {
      return [null, inRange(makeDate(Number(content), 1, 1), range)];
    }
    return [null, null];
  }
  const pubdate = el.getAttribute("pubdate");
  if (pubdate !== null) {
    return [pubdate.toLowerCase() === "pubdate" ? dateExpression(content, range) : null, null];
  }
  const equiv = el.getAttribute("http-equiv")?.toLowerCase();
  if (equiv === "date") return [dateExpression(content, range), null];
  if (equiv === "last-modified") return [null, dateExpression(content, range)];
  return [null, null];
}

/** The publication date of the page's meta tags and JSON-LD, else the reserve, else null. */
export function metaDate(root: DomElement, range: DateRange): FoundDate | null {
  let reserve: FoundDate | null = null;
  for (const el of elementsByTag(root, "meta")) {
    if (!el.hasAttribute("content") && !el.hasAttribute("datetime")) continue;
    const [date, spare] = readMetaTag(el, range);
    if (date) return date;
    if (spare) reserve = spare;
  }
  if (reserve) return reserve;
  for (const el of elementsByTag(root, "script")) {
    const type = el.getAttribute("type");
    if (type !== "application/ld+json" && type !== "application/settings+json") continue;
    const text = textOf(el);
    if (!text.includes('"date')) continue;
    const m = JSON_PUBLISHED.exec(text);
    const [y, mo, d] = (m?.[1] ?? "").split("-").map(Number);
    const found = m ? inRange(makeDate(y ?? 0, mo ?? 0, d ?? 0), range) : null;
    if (found) return found;
  }
  return null;
}
