/**
 * The CPU stage of a page, run in the crawl workers: extract, score facets, chunk, sign. Pure: no
 * I/O, so `inspect`, the benchmarks and the workers run the same function.
 */
import type { ChunkRow } from "../db/page-writes.ts";
import type { ExtractedDocument } from "../extract/document.ts";
import { extractDocument } from "../extract/extract-document.ts";
import { extractPdf } from "../extract/pdf/extract-pdf.ts";
import type { PdfCaps } from "../extract/pdf/pdf-source.ts";
import { isPdf } from "../extract/pdf/pdf-type.ts";
import { type FacetExplanation, type PageFacets, scorePage } from "../facets/score-page.ts";
import { markdownShape, type VectorDecision, vectorDecision } from "../search/vector-policy.ts";

/** What a worker hands back: plain data, the DOM and the page text left behind. */
export interface ProcessedPage {
  readonly doc: Omit<ExtractedDocument, "text">;
  readonly facets: PageFacets;
  readonly explain: FacetExplanation;
  /** Template-link words against main-content words; originality is finished with the domain's SimHashes. */
  readonly boilerplate: number;
  /** 16 hex digits, or null for a page without text. */
  readonly simhash: string | null;
  /** Those at index ≥ `vectors.vectors` are marked `vectorWanted: false`. */
  readonly chunks: readonly ChunkRow[];
  /** How many leading chunks get vectors (vector-policy.ts); null without chunks or the policy. */
  readonly vectors: VectorDecision | null;
  readonly contentHash: string;
  readonly textHash: string;
  /** CPU milliseconds of each stage. */
  readonly timings: Readonly<Record<string, number>>;
}

export type Chunker = (markdown: string, title: string | null) => ChunkRow[];

export interface ProcessOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** The page's `<lastmod>` in a sitemap (YYYY-MM-DD). */
  readonly sitemapLastmod?: string | null;
  readonly chunk?: Chunker;
  /** Apply the vector policy to the chunks (`WEBCORPUS_INDEX_PAGE_VECTORS=policy`). */
  readonly vectorPolicy?: boolean;
}

const sha256 = (data: Uint8Array | string, chars: number) =>
  new Bun.CryptoHasher("sha256").update(data).digest("hex").slice(0, chars);

export function contentHash(body: Uint8Array): string {
  return sha256(body, 32);
}

/** The text as compared for same-content duplicates: whitespace collapsed, case folded. */
export function textHash(text: string): string {
  return sha256(text.replace(/\s+/g, " ").trim().toLowerCase(), 32);
}

export function processPage(
  body: Uint8Array,
  url: string,
  options: ProcessOptions = {},
): ProcessedPage {
  const headers = options.headers ?? {};
  const clock = cpuClock();
  const doc = extractDocument(body, url, {
    ...(headers["content-type"] ? { contentType: headers["content-type"] } : {}),
    headers,
  });
  clock.lap("extract");
  return finishPage(doc, body, url, options, clock);
}

/** A PDF's CPU stage: the page, or why the document cannot be read (the error bucket's reason). */
export async function processPdf(
  body: Uint8Array,
  url: string,
  options: ProcessOptions & { readonly caps?: PdfCaps } = {},
): Promise<ProcessedPage | { readonly error: string }> {
  const clock = cpuClock();
  const extracted = await extractPdf(body, url, options.caps);
  clock.lap("extract");
  if (!extracted.ok) return { error: `unreadable PDF: ${extracted.reason}` };
  return finishPage(extracted.doc, body, url, options, clock);
}

/** The CPU stage of a fetched body: a PDF by its Content-Type or first bytes, else an HTML page. */
export function processBody(
  body: Uint8Array,
  url: string,
  options: ProcessOptions = {},
): ProcessedPage | Promise<ProcessedPage | { readonly error: string }> {
  return isPdf(options.headers?.["content-type"], body)
    ? processPdf(body, url, options)
    : processPage(body, url, options);
}

interface CpuClock {
  readonly timings: Record<string, number>;
  lap(stage: string): void;
}

// CPU time of this thread (not wall time, which grows with the machine's load).
function cpuClock(): CpuClock {
  const cpu = () => {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  };
  const timings: Record<string, number> = {};
  let t = cpu();
  return {
    timings,
    lap(stage: string) {
      const now = cpu();
      timings[stage] = (timings[stage] ?? 0) + now - t;
      t = now;
    },
  };
}

function finishPage(
  doc: ExtractedDocument,
  body: Uint8Array,
  url: string,
  options: ProcessOptions,
  clock: CpuClock,
): ProcessedPage {
  const headers = options.headers ?? {};
  const { timings } = clock;
  const lap = (stage: string) => clock.lap(stage);
  const scored = scorePage(doc, url, {
    contentLanguage: headers["content-language"] ?? null,
    sitemapLastmod: options.sitemapLastmod ?? null,
  });
  lap("facets");
  let chunks = options.chunk ? options.chunk(doc.markdown, doc.title) : [];
  lap("chunk");
  let vectors: VectorDecision | null = null;
  if (options.vectorPolicy && chunks.length > 0) {
    const shape = markdownShape(doc.markdown);
    vectors = vectorDecision({ url, type: scored.facets.type, chunks: chunks.length, shape });
    const keep = vectors.vectors;
    if (keep < chunks.length)
      chunks = chunks.map((c, n) => (n < keep ? c : { ...c, vectorWanted: false }));
    lap("vectors");
  }
  const simhash = doc.text
    ? BigInt.asUintN(64, scored.simhash).toString(16).padStart(16, "0")
    : null;
  const { text, ...rest } = doc;
  const page: ProcessedPage = {
    doc: rest,
    facets: scored.facets,
    explain: scored.explain,
    boilerplate: scored.boilerplate,
    simhash,
    chunks,
    vectors,
    contentHash: contentHash(body),
    textHash: textHash(text || doc.markdown),
    timings,
  };
  lap("hashes");
  return page;
}
