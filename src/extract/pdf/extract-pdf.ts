/**
 * extractPdf(): PDF bytes + URL → ExtractedDocument, or the reason it cannot be read. Pure (no
 * I/O), asynchronous because pdf.js is. The document's information dictionary gives the title
 * (else its first heading), the author and the date (created, else modified); its link
 * annotations are its links.
 */
import type { ExtractedDocument, Link } from "../document.ts";
import { markdownToText } from "../plain-text.ts";
import { countWords } from "../words.ts";
import { pdfMarkdown } from "./pdf-markdown.ts";
import { pdfDate, pdfDescription, pdfTitle } from "./pdf-metadata.ts";
import { readPdf } from "./pdf-reader.ts";
import { DEFAULT_PDF_CAPS, type PdfCaps, PdfError } from "./pdf-source.ts";

export { isPdf } from "./pdf-type.ts";

export type PdfExtraction =
  | { readonly ok: true; readonly doc: ExtractedDocument }
  | { readonly ok: false; readonly reason: string };

function links(urls: readonly string[], base: string): Link[] {
  const seen = new Set<string>();
  const out: Link[] = [];
  for (const raw of urls) {
    const parsed = URL.parse(raw, base);
    if (!parsed) continue;
    parsed.hash = "";
    const url = parsed.href;
    if (seen.has(url)) continue;
    seen.add(url);
    out.push({ url, anchorText: "", position: "body", nofollow: false });
  }
  return out;
}

export async function extractPdf(
  bytes: Uint8Array,
  url: string,
  caps: PdfCaps = DEFAULT_PDF_CAPS,
): Promise<PdfExtraction> {
  let source: Awaited<ReturnType<typeof readPdf>>;
  try {
    source = await readPdf(bytes, caps);
  } catch (err) {
    return { ok: false, reason: err instanceof PdfError ? err.message : String(err) };
  }
  const { markdown, firstHeading } = pdfMarkdown(source.pages);
  const text = markdownToText(markdown);
  if (text.trim() === "")
    return { ok: false, reason: `no text in ${source.pages.length} pages (scanned images?)` };
  const { info } = source;
  const title = pdfTitle(info.title) ?? firstHeading;
  return {
    ok: true,
    doc: {
      title,
      markdown,
      text,
      canonicalUrl: null,
      language: info.language,
      hreflang: [],
      description: pdfDescription(source.pageCount, info.author, info.subject),
      published: pdfDate(info.created) ?? pdfDate(info.modified),
      noindex: false,
      nofollow: false,
      assets: [],
      links: links(source.links, url),
      words: countWords(text),
      hasCode: /^(```|~~~)/m.test(markdown),
      jsonldTypes: [],
      ogType: null,
      pdf: { pages: source.pageCount, pagesRead: source.pages.length, author: info.author },
    },
  };
}
