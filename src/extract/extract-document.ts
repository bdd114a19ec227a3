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
import { publishedDate } from "./dates.ts";
import type { ExtractedDocument } from "./document.ts";
import type { DomElement } from "./dom.ts";
import { positionLinks, readLinks } from "./links.ts";
import { type MainContentStrategy, selectMainContent } from "./main-content.ts";
import { MarkdownRenderer, type Rendered } from "./markdown.ts";
import { applyRobots, emptyMeta, type PageMeta, readMeta } from "./metadata.ts";
import { parseHtml } from "./parse.ts";
import { markdownToText } from "./plain-text.ts";
import { dropNestedChrome, dropNeverContent } from "./prune.ts";
import { UrlResolver } from "./urls.ts";
import { countWords } from "./words.ts";

/** Larger bodies are cut before parsing. */
export const MAX_HTML_BYTES = 4 * 1024 * 1024;

export interface ExtractOptions {
  /** The response's Content-Type (its charset wins over the page's own declaration). */
  readonly contentType?: string;
  /** Other response headers that extraction reads: X-Robots-Tag, Content-Language. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How pages that are not documentation choose their main content (benchmarks compare). */
  readonly mainContent?: MainContentStrategy;
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

function toText(html: Uint8Array | string, contentType: string | undefined): string {
  if (typeof html === "string")
    return html.length > MAX_HTML_BYTES ? html.slice(0, MAX_HTML_BYTES) : html;
  return decodeHtml(html.subarray(0, MAX_HTML_BYTES), contentType);
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

function render(node: DomElement, urls: UrlResolver, chrome?: readonly DomElement[]): Rendered {
  dropNeverContent(node);
  dropNestedChrome(node, chrome);
  return markdownRenderer().render(node, urls);
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

function extract(html: Uint8Array | string, url: string, opts: ExtractOptions): ExtractedDocument {
  const text = toText(html, opts.contentType);
  const doc = parseHtml(text);
  if (doc === null || doc.documentElement === null) return emptyDocument(url, opts);
  const headers = {
    ...(opts.contentType ? { "content-type": opts.contentType } : {}),
    ...opts.headers,
  };
  const meta = readMeta(doc, url, headers);
  const urls = new UrlResolver(meta.baseUrl);
  const published = publishedDate(meta.publishedRaw, doc.documentElement, url);

  const container = findContainer(doc, meta.generator);
  let rendered: Rendered;
  let links: ExtractedDocument["links"];
  let plain: string;
  if (container !== null) {
    const chrome = doc.body ? chromeElements(doc.body) : [];
    links = positionLinks(readLinks(doc, urls, container.node), null);
    rendered = render(container.node, urls, chrome);
    plain = markdownToText(rendered.markdown);
  } else {
    const raw = readLinks(doc, urls, null);
    const main = selectMainContent(
      { doc, reparse: () => parseHtml(text), articleHint: isArticle(meta) },
      opts.mainContent,
    );
    rendered = main
      ? render(main, urls)
      : { markdown: "", assets: [], codeBlocks: 0, inlineCodeChars: 0 };
    plain = markdownToText(rendered.markdown);
    links = positionLinks(raw, plain);
  }
  return {
    title: meta.title,
    markdown: rendered.markdown,
    text: plain,
    canonicalUrl: meta.canonicalUrl,
    language: meta.language,
    hreflang: meta.hreflang,
    description: meta.description,
    published,
    noindex: meta.noindex,
    nofollow: meta.nofollow,
    assets: rendered.assets,
    links,
    words: countWords(plain),
    hasCode: rendered.codeBlocks > 0 || rendered.inlineCodeChars >= 200,
    jsonldTypes: meta.jsonldTypes,
    ogType: meta.ogType,
  };
}
