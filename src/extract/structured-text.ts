/**
 * The text a page's JSON-LD holds about the page's own subject (a schema.org Product's name and
 * description, an article's body, an FAQ's questions and answers), for pages whose visible
 * content a script renders from data: their HTML is an app shell (sizes, colours, a size guide)
 * beside the JSON-LD. It is added only to a page whose extracted text is short, and only what
 * that text does not already say: it never replaces what was extracted.
 *
 * Measured on WCXB dev/dev2 (test/eval/extraction/company-pages.ts): of the pages with such
 * JSON-LD, those below SHORT_PAGE_WORDS whose JSON-LD text is mostly new to the extracted text
 * are the ones it helps (a shop's product page of 34 words: word F1 0.11 -> 0.45); where the text
 * already holds the description (share known 0.65-0.88), adding it again costs precision, and on
 * longer pages the JSON-LD is an FAQ or a description the ground truth leaves out.
 */
import { jsonldTypeNames } from "./metadata.ts";

/** Only a page with fewer words than this is given its JSON-LD text. */
export const SHORT_PAGE_WORDS = 100;
/** The JSON-LD text new to the page must have at least this many words, and more than the page. */
const MIN_NEW_WORDS = 20;
/** A block is new when at most this share of its words are in the extracted text already. */
const MAX_KNOWN_SHARE = 0.5;

/** schema.org types whose text is the page's own subject (not the site's, a breadcrumb's or an
 * organization's: those describe every page of the site). */
const SUBJECT_TYPE =
  /^(?:Product|ProductGroup|\w*Article|BlogPosting|Report|FAQPage|QAPage|Question|Answer|Recipe|Course|Event|HowTo)$/;
/** Where the subject's parts are nested (a graph, an FAQ's questions, a question's answers). */
const NESTED = ["@graph", "mainEntity", "acceptedAnswer", "suggestedAnswer"] as const;
const TITLE_KEYS = ["name", "headline"] as const;
const TEXT_KEYS = ["description", "articleBody", "text"] as const;
const MAX_DEPTH = 8;

interface Block {
  /** 0 for a paragraph, else a heading level. */
  readonly level: number;
  readonly text: string;
}

const WORD = /[\p{L}\p{N}_]+/gu;
const TAG = /<\/?[a-z][^>]*>/gi;
const HAS_TAG = /<\/?[a-z][^>]*>/i;

function wordsOf(text: string): string[] {
  return text.replace(TAG, " ").toLowerCase().match(WORD) ?? [];
}

/** A string of human text: not a URL, an id or one token. */
function humanText(v: unknown, minWords: number): v is string {
  if (typeof v !== "string") return false;
  const s = v.trim();
  return s !== "" && !/^(?:https?:|\/)\S*$/.test(s) && wordsOf(s).length >= minWords;
}

function collect(node: unknown, out: Block[], depth: number): void {
  if (depth > MAX_DEPTH || node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) collect(item, out, depth + 1);
    return;
  }
  const rec = node as Record<string, unknown>;
  const types = jsonldTypeNames(rec);
  if (types.some((t) => SUBJECT_TYPE.test(t))) {
    const level = types.includes("Question") ? 3 : 2;
    const title = TITLE_KEYS.map((k) => rec[k]).find((v) => humanText(v, 1));
    if (title !== undefined) out.push({ level, text: title.trim() });
    for (const key of TEXT_KEYS) {
      const v = rec[key];
      if (humanText(v, 3) && v.trim() !== title?.trim()) out.push({ level: 0, text: v.trim() });
    }
  }
  for (const key of NESTED) if (key in rec) collect(rec[key], out, depth + 1);
}

const escapeHtml = (s: string) => s.replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A block as HTML: a description written in HTML is kept as it is, plain text gets paragraphs. */
function blockHtml(block: Block): string {
  if (block.level > 0) return `<h${block.level}>${escapeHtml(block.text)}</h${block.level}>`;
  if (HAS_TAG.test(block.text)) return `<div>${block.text}</div>`;
  return block.text
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/**
 * HTML of the JSON-LD text (`data`: the page's parsed JSON-LD scripts) that `extracted` (the
 * page's extracted plain text, short) lacks, when there is enough of it; else null.
 */
export function structuredHtml(data: readonly unknown[], extracted: string): string | null {
  const blocks: Block[] = [];
  for (const item of data) collect(item, blocks, 0);
  if (blocks.length === 0) return null;
  const own = wordsOf(extracted);
  const known = new Set(own);
  const seen = new Set<string>();
  const fresh: Block[] = [];
  let newWords = 0;
  for (const block of blocks) {
    const key = block.text.toLowerCase();
    if (seen.has(key)) continue; // a ProductGroup's variants repeat their group's description
    seen.add(key);
    const words = wordsOf(block.text);
    const knownWords = words.filter((w) => known.has(w)).length;
    if (words.length === 0 || knownWords > MAX_KNOWN_SHARE * words.length) continue;
    fresh.push(block);
    newWords += words.length;
  }
  if (newWords < MIN_NEW_WORDS || newWords <= own.length) return null;
  return fresh.map(blockHtml).join("\n");
}
