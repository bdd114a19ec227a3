/**
 * Boilerplate inside the main content of pages that are not documentation: bylines and
 * datelines, image captions and credits, share and follow bars, newsletter and subscription
 * boxes, "related"/"read more" link lists, author bios, tags, ads, customer reviews, a shop's
 * up-sells and cross-sells, disclaimers. Recognized by class/id names
 * and by link density; what remains is the text a reader came for.
 */
import { type DomElement, type DomNode, textOf, walkElements } from "./dom.ts";

// A class token (or id) names boilerplate when one of these is its last part, after any prefix
// ("article-byline", "c-caption") and before at most one container suffix ("share-bar").
const NAMES = [
  "by-?lines?",
  "authors?",
  "author-?(?:info|bio|box|card|details|name)",
  "bio",
  "date-?line",
  "time-?stamp",
  "pub-?date",
  "published",
  "updated",
  "dates?",
  "captions?",
  "figcaption",
  "credits?",
  "copyright",
  "related",
  "related-\\w+",
  "recommend\\w*",
  "more-?stories",
  "promos?",
  "newsletters?",
  "subscribe",
  "subscription",
  "sign-?up",
  "share",
  "sharing",
  "social",
  "follow",
  "tags",
  "tag-?list",
  "keywords",
  "comments?",
  "disqus",
  "ads?",
  "advert\\w*",
  "sponsor\\w*",
  "outbrain",
  "taboola",
  "print-?only",
  "up-?sells?",
  "cross-?sells?",
  "disclaimers?",
];
const SUFFIXES =
  "wrap|wrapper|container|box|block|text|area|section|list|links|module|widget|bar|inner|holder|tools|buttons|icons";
const BOILERPLATE_TOKEN = new RegExp(
  `^(?:[a-z0-9]+[-_]+)*(?:${NAMES.join("|")})(?:[-_]+(?:${SUFFIXES}))?$`,
  "i",
);

function tokensName(value: string): boolean {
  for (const token of value.split(/\s+/)) if (token && BOILERPLATE_TOKEN.test(token)) return true;
  return false;
}

const nameCache = new Map<string, boolean>();

function boilerplateName(value: string): boolean {
  let hit = nameCache.get(value);
  if (hit === undefined) {
    hit = tokensName(value);
    if (nameCache.size > 16_384) nameCache.clear();
    nameCache.set(value, hit);
  }
  return hit;
}

export interface BoilerplateRules {
  readonly names: boolean;
  /** Comment sections are boilerplate beside an article, the content of a forum thread. */
  readonly comments: boolean;
  readonly captions: boolean;
  readonly linkDensity: boolean;
  /** Link lists are dropped only while together they hold at most this share of the text
   * (beside one product, a grid of other products is an aside; a grid that is most of the
   * page is the page). */
  readonly linkListShare?: number;
}

export const ALL_RULES: BoilerplateRules = {
  names: true,
  comments: true,
  captions: true,
  linkDensity: true,
};
export const PAGE_RULES: BoilerplateRules = {
  ...ALL_RULES,
  comments: false,
  linkDensity: false,
};

const COMMENT_TOKEN = /^(?:[a-z0-9]+[-_]+)*(?:comments?|disqus)(?:[-_]+[a-z]+)?$/i;

function commentName(value: string): boolean {
  for (const token of value.split(/\s+/)) if (token && COMMENT_TOKEN.test(token)) return true;
  return false;
}

// Customer reviews beside a product, a service or an article are not its content; on a page
// of reviews (they hold most of its text) they are.
const REVIEW_TOKEN = new RegExp(
  `^(?:[a-z0-9]+[-_]+)*reviews?(?:[-_]+(?:${SUFFIXES}|carousel|slider|card|preview|summary|section))?$`,
  "i",
);

function reviewName(value: string): boolean {
  for (const token of value.split(/\s+/)) if (token && REVIEW_TOKEN.test(token)) return true;
  return false;
}

const BLOCKS = new Set([
  "p",
  "div",
  "ul",
  "ol",
  "li",
  "section",
  "aside",
  "dl",
  "table",
  "h4",
  "h5",
  "h6",
]);

function collapsedLength(s: string): number {
  return s.replace(/\s+/g, " ").trim().length;
}

/** Text length of `el` and of the links inside it. */
function linkDensity(el: DomElement): number {
  const total = collapsedLength(textOf(el));
  if (total === 0) return 0;
  let links = 0;
  walkElements(el, (a) => {
    if (a.localName !== "a") return true;
    links += collapsedLength(textOf(a));
    return false;
  });
  return links / total;
}

function isLinkList(el: DomElement): boolean {
  const text = collapsedLength(textOf(el));
  if (text === 0) return false;
  const density = linkDensity(el);
  if (el.localName === "p") return density > 0.8 && text < 200;
  if (el.localName === "li") return false;
  return density > 0.5 && text < 1000;
}

/** Share of `node`'s text in elements named as `named` says (outermost ones). */
function namedShare(node: DomNode, named: (value: string) => boolean): number {
  let inComments = 0;
  walkElements(node, (el) => {
    const cls = el.getAttribute("class");
    const id = el.getAttribute("id");
    if ((cls && named(cls)) || (id && named(id))) {
      inComments += collapsedLength(textOf(el));
      return false;
    }
    return true;
  });
  return inComments / Math.max(collapsedLength(textOf(node)), 1);
}

/** Remove boilerplate from below `node` (not `node` itself). */
export function dropBoilerplate(node: DomNode, given: BoilerplateRules = ALL_RULES): void {
  // Comments holding most of the content are the content (a thread, a Q&A page).
  const rules =
    given.comments && namedShare(node, commentName) > 0.5 ? { ...given, comments: false } : given;
  // Reviews holding most of the content are the content (a page of reviews).
  const reviews = rules.names && namedShare(node, reviewName) <= 0.5;
  const doomed: DomElement[] = [];
  const linkLists: DomElement[] = [];
  let total = -1;
  // A boilerplate-named element holding half the text is a misleading name, not boilerplate.
  const small = (el: DomElement): boolean => {
    if (total < 0) total = collapsedLength(textOf(node));
    return collapsedLength(textOf(el)) <= 0.5 * total;
  };
  walkElements(node, (el) => {
    const tag = el.localName;
    if (rules.captions && tag === "figcaption") {
      doomed.push(el);
      return false;
    }
    if (rules.names) {
      const cls = el.getAttribute("class");
      const id = el.getAttribute("id");
      const named = (v: string | null) =>
        v !== null &&
        v !== "" &&
        ((boilerplateName(v) && (rules.comments || !commentName(v))) || (reviews && reviewName(v)));
      if ((named(cls) || named(id)) && small(el)) {
        doomed.push(el);
        return false;
      }
    }
    if (rules.linkDensity && BLOCKS.has(tag) && isLinkList(el)) {
      linkLists.push(el);
      return false;
    }
    return true;
  });
  for (const el of doomed) el.remove();
  const share = rules.linkListShare;
  if (share !== undefined && linkLists.length > 0) {
    const listed = linkLists.reduce((n, el) => n + collapsedLength(textOf(el)), 0);
    if (listed > share * collapsedLength(textOf(node))) return;
  }
  for (const el of linkLists) el.remove();
}
