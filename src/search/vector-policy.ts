/**
 * Which chunks of a page are worth a vector (a prototype; the indexer does not call it yet).
 *
 * Embedding is what a crawl waits on, and a generated index page is the worst place to spend it:
 * a general index, module index, book index or table of contents (Python's `genindex-all` and
 * `contents.html`, PostgreSQL's `bookindex.html`, a DocBook book's front page) is a list of links,
 * hundreds of chunks of short anchors and their URLs. Text search finds every term of it; a vector
 * of 256 word pieces of it is the average of a hundred unrelated headings (and, with the links'
 * URLs in the chunk text, half of it is URL pieces). Such a page keeps vectors for its first
 * chunks (its title and introduction, so it stays findable by meaning) and the rest go without.
 *
 * A page is told from its structure, not from one site's file names: many short lines that hold
 * a link make most of its lines and words (a list, table or run of one-line paragraphs of links), or many
 * links whose anchors are most of its words (an index flattened into long lines, as Sphinx's
 * genindex columns extract). The facet type `listing` or an index-like URL path (genindex,
 * modindex, bookindex, sitemap, toc, contents, tags, categories, archives) lowers the bars, never
 * decides alone. Pages of few chunks are always embedded whole: there is little to save, and a
 * short hub page is a fair answer to a question.
 *
 * Pure: the markdown's shape (`markdownShape`) is counted once where the markdown is at hand (the
 * crawl worker), and the decision (`vectorDecision`) needs only those numbers, the URL and type.
 */

/** Counts of a page's markdown that tell a list of links from prose. */
export interface MarkdownShape {
  /** Non-blank lines outside code blocks that are not headings or table separators. */
  readonly contentLines: number;
  /** Content lines (list items, table rows, paragraphs) that hold a link and at most
   * `SHORT_ENTRY_WORDS` words: the entries of an index or table of contents. */
  readonly linkEntries: number;
  /** Words of the link entries (their anchors and the rest of their lines). */
  readonly linkEntryWords: number;
  /** Links in the content lines. */
  readonly links: number;
  /** Words of the content lines, each link counted by its anchor only (URLs are no words). */
  readonly words: number;
  /** Of `words`, those inside link anchors. */
  readonly linkWords: number;
}

export interface PageForVectors {
  readonly url: string;
  /** The page's facet `type` (vocabulary.ts). */
  readonly type: string;
  /** Chunks the page was cut into. */
  readonly chunks: number;
  readonly shape: MarkdownShape;
}

export interface VectorDecision {
  /** How many of the page's leading chunks get vectors (all of them: `chunks`). */
  readonly vectors: number;
  /** Why fewer than all; null when every chunk gets one. */
  readonly reason: string | null;
}

/** An index entry is short: "[`atexit`](…) Register and execute cleanup functions." */
export const SHORT_ENTRY_WORDS = 16;
/** Pages of at most this many chunks are embedded whole. */
export const ALWAYS_EMBED_CHUNKS = 4;
/** Leading chunks of an index-like page that keep their vectors. */
export const INDEX_PAGE_VECTORS = 2;
/** Link entries a page needs, their share of its content lines and of its words, to read as an
 * index (the share of words keeps a chapter whose many short lines of links are its own table of
 * contents above long paragraphs). */
export const MIN_LINK_ENTRIES = 40;
export const MIN_LINK_ENTRY_SHARE = 0.6;
export const MIN_LINK_ENTRY_WORD_SHARE = 0.5;
/** Or links, and the share of its words in their anchors. */
export const MIN_LINKS = 100;
export const MIN_LINK_WORD_SHARE = 0.5;
/** The lower bars with a hint (type `listing`, an index-like URL path). */
export const HINTED = {
  linkEntries: 15,
  linkEntryShare: 0.4,
  linkEntryWordShare: 0.3,
  links: 30,
  linkWordShare: 0.3,
} as const;

/** Path names that generated indexes and tables of contents go by (lowercased path). */
const INDEX_PATH =
  /(^|\/)(gen-?index[^/]*|(py-?)?mod-?index[^/]*|book-?index[^/]*|sitemap[^/]*|site-?map[^/]*|toc|contents|table-of-contents|tags?|categories|category|archives?|a-z)(\.[a-z0-9]+)?\/?$/;

const LINK = /!?\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const FENCE = /^\s*(```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s/;
const WORD = /[\p{L}\p{N}_]+/gu;

function countWords(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(WORD)) n++;
  return n;
}

/** Counts the markdown's content lines, link entries, links and link words (one pass). */
export function markdownShape(markdown: string): MarkdownShape {
  let contentLines = 0;
  let linkEntries = 0;
  let linkEntryWords = 0;
  let links = 0;
  let words = 0;
  let linkWords = 0;
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (FENCE.test(line)) {
      inCode = !inCode;
      continue;
    }
    if (inCode || line.trim() === "" || HEADING.test(line) || TABLE_SEPARATOR.test(line)) continue;
    contentLines++;
    let anchors = 0;
    let anchorWords = 0;
    const text = line.replace(LINK, (_, anchor: string) => {
      anchors++;
      anchorWords += countWords(anchor);
      return ` ${anchor} `;
    });
    const lineWords = countWords(text);
    words += lineWords;
    links += anchors;
    linkWords += anchorWords;
    if (anchors > 0 && lineWords <= SHORT_ENTRY_WORDS) {
      linkEntries++;
      linkEntryWords += lineWords;
    }
  }
  return { contentLines, linkEntries, linkEntryWords, links, words, linkWords };
}

/** Whether the URL's path names a generated index or table of contents. */
export function indexLikePath(url: string): boolean {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return false;
  }
  return INDEX_PATH.test(path);
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Why the page reads as a generated index (null: it does not). */
export function indexEvidence(page: PageForVectors): string | null {
  const { shape } = page;
  const entryShare = shape.contentLines > 0 ? shape.linkEntries / shape.contentLines : 0;
  const wordShare = shape.words > 0 ? shape.linkWords / shape.words : 0;
  const entryWordShare = shape.words > 0 ? shape.linkEntryWords / shape.words : 0;
  const hints: string[] = [];
  if (page.type === "listing") hints.push("type listing");
  if (indexLikePath(page.url)) hints.push("index-like path");
  const bars = hints.length > 0 ? HINTED : null;
  const because = (what: string) => (bars ? `${hints.join(", ")}; ${what}` : what);
  if (
    shape.linkEntries >= (bars?.linkEntries ?? MIN_LINK_ENTRIES) &&
    entryShare >= (bars?.linkEntryShare ?? MIN_LINK_ENTRY_SHARE) &&
    entryWordShare >= (bars?.linkEntryWordShare ?? MIN_LINK_ENTRY_WORD_SHARE)
  )
    return because(
      `${shape.linkEntries} of ${shape.contentLines} lines are short link entries (${pct(entryWordShare)} of the words)`,
    );
  if (
    shape.links >= (bars?.links ?? MIN_LINKS) &&
    wordShare >= (bars?.linkWordShare ?? MIN_LINK_WORD_SHARE)
  )
    return because(`${shape.links} links, ${pct(wordShare)} of the words in anchors`);
  return null;
}

/** How many of the page's leading chunks get vectors, and why not all. */
export function vectorDecision(page: PageForVectors): VectorDecision {
  const all = { vectors: page.chunks, reason: null };
  if (page.chunks <= ALWAYS_EMBED_CHUNKS) return all;
  const evidence = indexEvidence(page);
  if (evidence === null) return all;
  return { vectors: Math.min(page.chunks, INDEX_PAGE_VECTORS), reason: `index page: ${evidence}` };
}
