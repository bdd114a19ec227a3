/**
 * The extracted document: what extraction hands to facets, chunking and storage. Plain data
 * (no DOM), so it crosses `postMessage` from the crawl workers cheaply.
 */

/** `template` when the link sits in navigation, header, footer, aside, menus or other chrome. */
export type LinkPosition = "body" | "template";

export interface Link {
  /** Absolute (resolved against the page URL and `<base href>`), fragment removed. */
  readonly url: string;
  readonly anchorText: string;
  readonly position: LinkPosition;
  readonly nofollow: boolean;
}

export interface Asset {
  readonly url: string;
  readonly kind: "image";
  readonly alt: string;
}

export interface ExtractedDocument {
  readonly title: string | null;
  /** Clean markdown of the main content: headings, lists, tables, fenced code with language. */
  readonly markdown: string;
  /** Plain text of the main content (markdown syntax stripped). */
  readonly text: string;
  readonly canonicalUrl: string | null;
  /** Declared language: `<html lang>` or Content-Language meta, as written (e.g. `en-US`). */
  readonly language: string | null;
  /** `[hreflang value, absolute URL]` pairs from `<link rel=alternate hreflang>`. */
  readonly hreflang: readonly (readonly [string, string])[];
  readonly description: string | null;
  /** `YYYY-MM-DD`. */
  readonly published: string | null;
  readonly noindex: boolean;
  readonly nofollow: boolean;
  readonly assets: readonly Asset[];
  readonly links: readonly Link[];
  readonly words: number;
  readonly hasCode: boolean;
  readonly jsonldTypes: readonly string[];
  readonly ogType: string | null;
  /** Set when the document is a PDF (src/extract/pdf/), not an HTML page. */
  readonly pdf?: PdfFacts;
}

export interface PdfFacts {
  /** Pages the document declares. */
  readonly pages: number;
  /** Pages whose text was read (fewer than `pages` past the page cap). */
  readonly pagesRead: number;
  readonly author: string | null;
}
