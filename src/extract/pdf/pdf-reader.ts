/**
 * The PDF parser: pdf.js (pdfjs-dist, legacy build) run in the calling thread, no I/O. Bytes in,
 * a PdfSource out, or a PdfError with the reason; within PdfCaps (declared pages, pages read,
 * time). pdf.js's "worker" half runs here too (its fake worker): the crawl workers are the
 * threads that parse, and a thread that hangs anyway is replaced by the crawl pool's timeout.
 */
import type { TextItem } from "pdfjs-dist/types/src/display/api";
import type { PageText, PdfCaps, PdfInfo, PdfSource, TextRun } from "./pdf-source.ts";
import { DEFAULT_PDF_CAPS, PdfError } from "./pdf-source.ts";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
type PdfDocument = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;
type PdfPage = Awaited<ReturnType<PdfDocument["getPage"]>>;

let loading: Promise<PdfJs> | null = null;

/** pdf.js, loaded on the first PDF (most crawls never see one: ~3 MB of code not compiled). */
function pdfjs(): Promise<PdfJs> {
  loading ??= (async () => {
    // Given as a global, the worker half is used in this thread instead of being imported by
    // path at run time (which a single executable could not resolve).
    const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import("pdfjs-dist/legacy/build/pdf.mjs");
  })();
  return loading;
}

// Font names that say the face is bold (PostScript names, TeX's Computer Modern bold "CMBX").
const BOLD_FONT = /bold|black|heavy|semibold|demi|[-,+]bd\b|cmbx|cmb\d|\+?[A-Z]*BX\d/i;

interface FontFace {
  readonly bold: boolean;
  readonly mono: boolean;
}

function isTextItem(item: object): item is TextItem {
  return "str" in item && "transform" in item;
}

function textOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  // Strings of the information dictionary may carry NULs and a byte-order mark.
  const clean = value.replaceAll("\0", "").replaceAll("\ufeff", "").trim();
  return clean === "" ? null : clean;
}

function readInfo(info: object, xmpTitle: string | null, xmpAuthor: string | null): PdfInfo {
  const get = (key: string) => textOf((info as Record<string, unknown>)[key]);
  return {
    title: get("Title") ?? xmpTitle,
    author: get("Author") ?? xmpAuthor,
    subject: get("Subject"),
    created: get("CreationDate"),
    modified: get("ModDate"),
    language: get("Language"),
  };
}

async function metadata(doc: PdfDocument): Promise<PdfInfo> {
  const { info, metadata: xmp } = await doc.getMetadata();
  const field = (name: string) => {
    const value: unknown = xmp?.get(name);
    return Array.isArray(value) ? textOf(value.join(", ")) : textOf(value);
  };
  return readInfo(info, field("dc:title"), field("dc:creator"));
}

/**
 * Text content names its fonts but not their faces; the operator list of a page hands pdf.js's
 * font objects (with their PostScript names) to commonObjs. Read for the first pages that
 * introduce a font, with images skipped (maxImageSize).
 */
async function learnFonts(
  page: PdfPage,
  names: readonly string[],
  faces: Map<string, FontFace>,
  styles: Record<string, { fontFamily?: string }>,
  allowOperatorList: boolean,
): Promise<void> {
  const unknown = names.filter((n) => !faces.has(n));
  if (unknown.length === 0) return;
  if (allowOperatorList) await page.getOperatorList();
  for (const name of unknown) {
    const mono = styles[name]?.fontFamily === "monospace";
    let bold = false;
    if (page.commonObjs.has(name)) {
      const font = page.commonObjs.get(name) as { name?: unknown; bold?: unknown; black?: unknown };
      const psName = typeof font.name === "string" ? font.name : "";
      bold = font.bold === true || font.black === true || BOLD_FONT.test(psName);
    }
    faces.set(name, { bold, mono });
  }
}

async function readPage(
  page: PdfPage,
  faces: Map<string, FontFace>,
  fontPages: { left: number },
): Promise<PageText> {
  // Coordinates from the page box's lower left corner (a MediaBox need not start at 0 0).
  const [left = 0, bottom = 0, right = 612, top = 792] = page.view;
  const content = await page.getTextContent();
  const items = content.items.filter(isTextItem);
  const names = [...new Set(items.map((i) => i.fontName))];
  const learn = names.some((n) => !faces.has(n)) && fontPages.left > 0;
  if (learn) fontPages.left--;
  await learnFonts(page, names, faces, content.styles, learn);
  const runs: TextRun[] = [];
  for (const item of items) {
    if (item.str.trim() === "") continue;
    const [a, b, c, d, x, y] = item.transform as [number, number, number, number, number, number];
    // Rotated or vertical text (a margin stamp) is left out of the reading order.
    if (Math.abs(b) > 1e-3 || Math.abs(c) > 1e-3 || a <= 0) continue;
    const face = faces.get(item.fontName) ?? { bold: false, mono: false };
    runs.push({
      text: item.str,
      x: x - left,
      y: y - bottom,
      width: item.width,
      size: Math.abs(d) || Math.abs(a),
      font: item.fontName,
      bold: face.bold,
      mono: face.mono,
    });
  }
  return { width: right - left, height: top - bottom, runs };
}

async function linksOf(page: PdfPage): Promise<string[]> {
  const annotations: unknown[] = await page.getAnnotations({ intent: "display" });
  const urls: string[] = [];
  for (const a of annotations) {
    const url = (a as { url?: unknown }).url;
    if (typeof url === "string" && /^https?:/i.test(url)) urls.push(url);
  }
  return urls;
}

function reason(err: unknown): string {
  if (err instanceof PdfError) return err.message;
  const name = err instanceof Error ? err.name : "";
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError) return `too deeply nested (${message})`;
  if (name === "InvalidPDFException") return `not a readable PDF (${message})`;
  if (name === "PasswordException") return "encrypted: a password is needed to read it";
  return `unreadable PDF: ${name ? `${name}: ` : ""}${message}`;
}

async function readAll(doc: PdfDocument, caps: PdfCaps, deadline: number): Promise<PdfSource> {
  if (doc.numPages > caps.maxDeclaredPages)
    throw new PdfError(`declares ${doc.numPages} pages, more than ${caps.maxDeclaredPages}`);
  const info = await metadata(doc);
  const pages: PageText[] = [];
  const links: string[] = [];
  const faces = new Map<string, FontFace>();
  const fontPages = { left: caps.fontPages };
  const last = Math.min(doc.numPages, caps.maxPages);
  for (let n = 1; n <= last; n++) {
    if (performance.now() > deadline) {
      // The pages read so far are the document's beginning: kept, like a page cap.
      if (pages.length > 0) break;
      throw new PdfError(`took longer than ${caps.timeMs / 1000} s`);
    }
    const page = await doc.getPage(n);
    pages.push(await readPage(page, faces, fontPages));
    links.push(...(await linksOf(page)));
    page.cleanup();
  }
  return { pageCount: doc.numPages, pages, info, links };
}

/** Reads a PDF's text, metadata and links; rejects only with a PdfError. */
export async function readPdf(
  bytes: Uint8Array,
  caps: PdfCaps = DEFAULT_PDF_CAPS,
): Promise<PdfSource> {
  const lib = await pdfjs();
  const task = lib.getDocument({
    // A plain copy: pdf.js refuses a Buffer and may detach what it is given.
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    maxImageSize: 1,
    // Hands the fonts' PostScript names to commonObjs (learnFonts).
    fontExtraProperties: true,
    verbosity: lib.VerbosityLevel.ERRORS,
  });
  const deadline = performance.now() + caps.timeMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PdfError(`took longer than ${caps.timeMs / 1000} s`)),
      caps.timeMs,
    );
  });
  try {
    return await Promise.race([task.promise.then((doc) => readAll(doc, caps, deadline)), timeout]);
  } catch (err) {
    throw new PdfError(reason(err));
  } finally {
    clearTimeout(timer);
    await task.destroy().catch(() => undefined);
  }
}
