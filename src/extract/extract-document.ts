/**
 * extractDocument(): HTML (bytes or text) + URL → ExtractedDocument. Pure, no I/O, never throws
 * on bad input: one bad page must not stop a crawl.
 *
 * Documentation pages (a docs generator's container, or a main container holding code or data
 * tables) are rendered from that container as they are; other pages go through main-content
 * selection first. Links are read before anything changes the tree.
 */
import { decodeHtml } from "./charset.ts";
import { chromeElements } from "./chrome.ts";
import { findContainer } from "./containers.ts";
import { type DateSource, labeledDate, publishedDateOf } from "./dates.ts";
import type { ExtractedDocument } from "./document.ts";
import type { DomDocument, DomElement } from "./dom.ts";
import { positionLinks, type RawLink, readLinks } from "./links.ts";
import { type MainContentStrategy, prunePageContainer, selectMainContent } from "./main-content.ts";
import { MarkdownRenderer, type Rendered } from "./markdown.ts";
import { applyRobots, emptyMeta, type PageMeta, readMeta } from "./metadata.ts";
import { revealNoscriptContent } from "./noscript.ts";
import { parseHtml } from "./parse.ts";
import { markdownToText } from "./plain-text.ts";
import { dropNestedChrome, dropNeverContent } from "./prune.ts";
import { StageClock, type StageTimings } from "./stage-clock.ts";
import { SHORT_PAGE_WORDS, structuredHtml } from "./structured-text.ts";
import { UrlResolver } from "./urls.ts";
import { countWords } from "./words.ts";

/** Larger bodies are cut before parsing (after their scripts and styles are emptied). */
export const MAX_HTML_BYTES = 4 * 1024 * 1024;

export interface ExtractOptions {
  /** The response's Content-Type (its charset wins over the page's own declaration). */
  readonly contentType?: string;
  /** Other response headers that extraction reads: X-Robots-Tag, Content-Language. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How pages that are not documentation choose their main content (benchmarks compare). */
  readonly mainContent?: MainContentStrategy;
  /** When given, CPU ms per stage are added to it (benchmarks). */
  readonly timings?: StageTimings;
  /** When given, where the published date came from is written to it (evaluations). */
  readonly dateSource?: { source: DateSource | null };
}

let renderer: MarkdownRenderer | null = null;

function markdownRenderer(): MarkdownRenderer {
  renderer ??= new MarkdownRenderer();
  return renderer;
}

function emptyDocument(url: string, opts: ExtractOptions): ExtractedDocument {
  const meta = emptyMeta(url);
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    if (k.toLowerCase() === "x-robots-tag") applyRobots(meta, v);
  }
  return {
    title: null,
    markdown: "",
    text: "",
    canonicalUrl: null,
    language: null,
    hreflang: [],
    description: null,
    published: null,
    noindex: meta.noindex,
    nofollow: meta.nofollow,
    assets: [],
    links: [],
    words: 0,
    hasCode: false,
    jsonldTypes: [],
    ogType: null,
  };
}

/** Hard bound on what is decoded at all. */
const MAX_DECODED_BYTES = 4 * MAX_HTML_BYTES;

// A script's or a style's body, JSON-LD's excepted (its types are read).
const SCRIPT_OR_STYLE = /(<(script|style)\b[^>]*>)[\s\S]*?(<\/\2\s*>)/gi;

/** Past the cut, a page's inline scripts and styles (megabytes of a shop's state) are emptied
 * first: the text after them is the page's, the cut then applies to what remains. */
function cut(text: string): string {
  if (text.length <= MAX_HTML_BYTES) return text;
  const lean = text.replace(SCRIPT_OR_STYLE, (whole, open: string, _tag, close: string) =>
    /ld\+json/i.test(open) ? whole : open + close,
  );
  return lean.length > MAX_HTML_BYTES ? lean.slice(0, MAX_HTML_BYTES) : lean;
}

function toText(html: Uint8Array | string, contentType: string | undefined): string {
  if (typeof html === "string") return cut(html.slice(0, MAX_DECODED_BYTES));
  return cut(decodeHtml(html.subarray(0, MAX_DECODED_BYTES), contentType));
}

const ARTICLE_TYPE = /Article$|^BlogPosting$|^Report$/;
const OTHER_PAGE_TYPE =
  /^(?:Product|ProductGroup|ItemPage|CollectionPage|ItemList|DiscussionForumPosting|QAPage|FAQPage|SoftwareApplication|LocalBusiness|Offer|SearchResultsPage)$/;

/** The page says it is an article (og:type, or a schema.org article type in JSON-LD). */
function isArticle(meta: PageMeta): boolean {
  if (meta.jsonldTypes.some((t) => ARTICLE_TYPE.test(t))) return true;
  // Many sites say og:type "article" of every page: not believed beside a schema.org type of
  // another kind of page.
  return (
    meta.ogType?.toLowerCase() === "article" &&
    !meta.jsonldTypes.some((t) => OTHER_PAGE_TYPE.test(t))
  );
}

/** A schema.org type or og:type of a page of many products (a category, search results). */
const COLLECTION_TYPE = /^(?:CollectionPage|SearchResultsPage)$/;
const COLLECTION_OG_TYPE = /product[.:_-]?group/i;

/** The page says it shows one product (og:type product, a schema.org Product), and not that it
 * is a page of many (og:type product.group, a schema.org CollectionPage: a shop's category). */
function isProduct(meta: PageMeta): boolean {
  if (meta.jsonldTypes.some((t) => COLLECTION_TYPE.test(t))) return false;
  if (meta.jsonldTypes.some((t) => t === "Product" || t === "ProductGroup")) return true;
  const og = meta.ogType ?? "";
  return /product/i.test(og) && !COLLECTION_OG_TYPE.test(og);
}

export function extractDocument(
  html: Uint8Array | string,
  url: string,
  opts: ExtractOptions = {},
): ExtractedDocument {
  try {
    return extract(html, url, opts);
  } catch {
    return emptyDocument(url, opts);
  }
}

const NOSCRIPT = /<noscript/i;

/** The page's tree, its `<noscript>` content revealed when that is all the content it has. */
function parsePage(text: string): DomDocument | null {
  const doc = parseHtml(text);
  // A scan of the text is cheaper than a walk of the tree, and most pages have no <noscript>.
  if (doc !== null && NOSCRIPT.test(text)) revealNoscriptContent(doc);
  return doc;
}

const NO_CONTENT: Rendered = { markdown: "", assets: [], codeBlocks: 0, inlineCodeChars: 0 };

/** A short page's content with what its JSON-LD says of its subject and the page does not (a
 * product page whose description a script renders from data); null when that adds nothing. */
function withStructuredText(
  rendered: Rendered,
  plain: string,
  meta: PageMeta,
  urls: UrlResolver,
): Rendered | null {
  const html = structuredHtml(meta.jsonld, plain);
  if (html === null) return null;
  const body = parseHtml(`<body>${html}</body>`)?.body;
  if (!body) return null;
  dropNeverContent(body);
  const extra = markdownRenderer().render(body, urls);
  if (extra.markdown.trim() === "") return null;
  const known = new Set(rendered.assets.map((a) => a.url));
  return {
    markdown: rendered.markdown.trim()
      ? `${rendered.markdown}\n\n${extra.markdown}`
      : extra.markdown,
    assets: [...rendered.assets, ...extra.assets.filter((a) => !known.has(a.url))],
    codeBlocks: rendered.codeBlocks + extra.codeBlocks,
    inlineCodeChars: rendered.inlineCodeChars + extra.inlineCodeChars,
  };
}

function extract(html: Uint8Array | string, url: string, opts: ExtractOptions): ExtractedDocument {
  const clock = new StageClock(opts.timings);
  const text = toText(html, opts.contentType);
  clock.lap("rest");
  const doc = parsePage(text);
  clock.lap("parse");
  if (doc === null || doc.documentElement === null) return emptyDocument(url, opts);
  const headers = {
    ...(opts.contentType ? { "content-type": opts.contentType } : {}),
    ...opts.headers,
  };
  const meta = readMeta(doc, url, headers);
  const urls = new UrlResolver(meta.baseUrl);
  clock.lap("rest");

  const container = findContainer(doc, meta.generator);
  clock.lap("select");
  const published = publishedDateOf({
    title: meta.title,
    language: meta.language,
    metadata: meta.publishedRaw,
    timeValues: meta.timeValues,
    url,
    docs: container !== null,
    generated: container?.generated === true,
    doc,
    html: text,
  });
  clock.lap("rest");
  let main: DomElement | null;
  let raw: RawLink[];
  let chrome: DomElement[] | undefined;
  if (container !== null) {
    chrome = doc.body ? chromeElements(doc.body) : []; // before anything changes the tree
    clock.lap("select");
    raw = readLinks(doc, urls, container.node);
    clock.lap("rest");
    main = container.node;
    if (container.tableOnly) prunePageContainer(main, isProduct(meta));
  } else {
    clock.lap("select");
    raw = readLinks(doc, urls, null); // before Readability rewrites the tree
    clock.lap("rest");
    main = selectMainContent(
      {
        doc,
        reparse: () => parsePage(text),
        articleHint: isArticle(meta),
        productHint: isProduct(meta),
      },
      opts.mainContent,
    );
  }
  if (main !== null) {
    dropNeverContent(main);
    dropNestedChrome(main, chrome);
  }
  clock.lap("select");
  let rendered = main === null ? NO_CONTENT : markdownRenderer().render(main, urls);
  clock.lap("markdown");
  let plain = markdownToText(rendered.markdown);
  if (container === null && meta.jsonld.length > 0 && countWords(plain) < SHORT_PAGE_WORDS) {
    const fuller = withStructuredText(rendered, plain, meta, urls);
    if (fuller !== null) {
      rendered = fuller;
      plain = markdownToText(rendered.markdown);
    }
  }
  const labeled = published !== null || container === null ? null : labeledDate(plain);
  const dated = published?.day ?? labeled;
  if (opts.dateSource) opts.dateSource.source = published?.source ?? (labeled ? "labeled" : null);
  const links = positionLinks(raw, container === null ? plain : null);
  const words = countWords(plain);
  clock.lap("rest");
  return {
    title: meta.title,
    markdown: rendered.markdown,
    text: plain,
    canonicalUrl: meta.canonicalUrl,
    language: meta.language,
    hreflang: meta.hreflang,
    description: meta.description,
    published: dated,
    noindex: meta.noindex,
    nofollow: meta.nofollow,
    assets: rendered.assets,
    links,
    words,
    hasCode: rendered.codeBlocks > 0 || rendered.inlineCodeChars >= 200,
    jsonldTypes: meta.jsonldTypes,
    ogType: meta.ogType,
  };
}
