/**
 * What the PDF parser hands to layout: positioned text runs per page, the document information
 * dictionary and link annotations. Plain data, parser-neutral (pdf-reader.ts fills it).
 */

/** One run of text on a page, in PDF user space (origin bottom left, y grows upwards). */
export interface TextRun {
  readonly text: string;
  /** Left end of the baseline. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  /** Font size in points (the text matrix's vertical scale). */
  readonly size: number;
  /** The parser's name for the font, the same on every page of a document. */
  readonly font: string;
  readonly bold: boolean;
  readonly mono: boolean;
}

export interface PageText {
  readonly width: number;
  readonly height: number;
  readonly runs: readonly TextRun[];
}

/** The information dictionary (and the catalog's /Lang), as strings. */
export interface PdfInfo {
  readonly title: string | null;
  readonly author: string | null;
  readonly subject: string | null;
  readonly created: string | null;
  readonly modified: string | null;
  readonly language: string | null;
}

export interface PdfSource {
  /** Pages the document declares. */
  readonly pageCount: number;
  /** The pages read, first to last (at most the page cap). */
  readonly pages: readonly PageText[];
  readonly info: PdfInfo;
  /** URLs of link annotations, in page order. */
  readonly links: readonly string[];
}

/** Bounds on one document; past them it is refused (declared pages) or cut (pages read). */
export interface PdfCaps {
  /** More declared pages than this: refused as hostile (a real document this long is a dump). */
  readonly maxDeclaredPages: number;
  /** Pages whose text is read; the rest of a longer document is left out. */
  readonly maxPages: number;
  /** Wall-clock bound on reading one document, in ms. */
  readonly timeMs: number;
  /** Pages whose operator list may be read to learn font names (bold headings). */
  readonly fontPages: number;
}

export const DEFAULT_PDF_CAPS: PdfCaps = {
  maxDeclaredPages: 20_000,
  maxPages: 400,
  timeMs: 30_000,
  fontPages: 12,
};

/** A document that cannot be read: the reason lands in the ledger's error bucket. */
export class PdfError extends Error {
  override readonly name = "PdfError";
}
