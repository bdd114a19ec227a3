/**
 * The shards' tokenizer, an Orama `tokenizer` component. Orama's default splits on
 * `[^a-z0-9_'-]+` (every CJK, Cyrillic or accented word is cut or dropped) and caches every token
 * it ever saw per property (`normalizationCache` grows without bound). This one:
 * - folds case and diacritics as the reference's FTS5 `unicode61 remove_diacritics 2` did;
 * - splits on anything that is not a letter or digit (`_`, quotes, operators are separators, so
 *   no user text is ever query syntax);
 * - cuts runs of Han, Kana and Hangul into overlapping character pairs (CJK text has no spaces);
 * - stems Latin-script words with Orama's English stemmer (through a bounded cache);
 * - keeps duplicates when indexing (a property is given), so the index counts term frequency,
 *   and returns each term once for a query.
 * Stop words stay in the index: a query drops them unless nothing else remains (`queryTerms`).
 */
import { components, type Tokenizer } from "@orama/orama";
import { HASH_SEED, hashStep, SliceCache } from "./slice-cache.ts";

/** Bumped whenever a change here would index text differently: shards record it. */
export const TOKENIZER_VERSION = 1;

/** A query keeps at most this many terms (the reference's MAX_TERMS). */
export const MAX_QUERY_TERMS = 32;

/** Longest token kept (longer runs are base64, hashes, minified code). */
const MAX_TOKEN_LENGTH = 40;

const STOP_WORD_LIST = `a about above after again against all am an and any are as at be because been before being
  below between both but by can could did do does doing down during each few for from further had
  has have having he her here hers herself him himself his how i if in into is it its itself just
  me more most my myself no nor not of off on once only or other our ours ourselves out over own
  same she should so some such than that the their theirs them themselves then there these they
  this those through to too under until up very was we were what when where which while who whom
  why will with would you your yours yourself yourselves near`;

/** Letters and digits after diacritics are removed; everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
const NON_ASCII = /[^ -~\t\n\r]/;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const LATIN_WORD = /^[a-z]+$/;

const STEM_CACHE_LIMIT = 50_000;

/** Orama's English stemmer, taken from the tokenizer it builds (it is not exported alone). */
const englishStemmer = (
  components.tokenizer.createTokenizer({ stemming: true }) as { stemmer?: (w: string) => string }
).stemmer;
if (!englishStemmer) throw new Error("Orama 3.1.18's tokenizer no longer exposes its stemmer");

const stemCache = new Map<string, string>();

function stem(word: string): string {
  if (word.length < 3 || !LATIN_WORD.test(word)) return word;
  let out = stemCache.get(word);
  if (out === undefined) {
    out = (englishStemmer as (w: string) => string)(word);
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, out);
  }
  return out;
}

/** Case- and diacritic-folded text (NFKD, marks removed, lower case). */
export function foldText(text: string): string {
  // Only text with non-ASCII characters needs the (slower) Unicode normalisation. NFC after the
  // marks are gone puts Hangul syllables, which NFKD splits into jamo, back together.
  const folded = !NON_ASCII.test(text)
    ? text
    : text.normalize("NFKD").replace(MARKS, "").normalize("NFC");
  return folded.toLowerCase();
}

/** Tokens of ASCII words as written (case kept), by the word's characters (see slice-cache.ts). */
const asciiWords = new SliceCache<string>(STEM_CACHE_LIMIT);

function pushAsciiWord(out: string[], text: string, start: number, end: number, hash: number) {
  if (end - start > MAX_TOKEN_LENGTH) return;
  let token = asciiWords.get(text, start, end, hash);
  if (token === undefined) {
    const word = text.slice(start, end);
    token = stem(word.toLowerCase());
    asciiWords.set(word, hash, token);
  }
  out.push(token);
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

/**
 * Every token of `text` in order, duplicates kept. Folding and word rules never act across
 * whitespace, so the text is taken a whitespace-separated piece at a time: a piece of printable
 * ASCII is tokenized here, without a regex or a substring per word (folding is lower case, words
 * are runs of [A-Za-z0-9], a word seen before is one lookup); runs of other pieces go through
 * `unicodeTokens`. The test suite checks both paths against each other.
 */
export function tokens(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let pieceStart = 0;
  /** out.length when the current piece started. */
  let mark = 0;
  let ascii = true;
  /** Start of the pending run of pieces that take the Unicode rules (−1: none). */
  let unicodeStart = -1;
  let wordStart = -1;
  let hash = HASH_SEED;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) {
      if (ascii) {
        if (wordStart < 0) {
          wordStart = i;
          hash = HASH_SEED;
        }
        hash = hashStep(hash, c);
      }
      continue;
    }
    if (isSpace(c)) {
      if (!ascii) {
        if (unicodeStart < 0) unicodeStart = pieceStart;
      } else {
        if (wordStart >= 0) pushAsciiWord(out, text, wordStart, i, hash);
        if (unicodeStart >= 0 && out.length > mark) {
          // The pending Unicode run comes first.
          const own = out.splice(mark);
          for (const t of unicodeTokens(text.slice(unicodeStart, pieceStart))) out.push(t);
          for (const t of own) out.push(t);
          unicodeStart = -1;
        }
      }
      ascii = true;
      wordStart = -1;
      pieceStart = i + 1;
      mark = out.length;
      continue;
    }
    if (!ascii) continue;
    if (c > 126 || c < 32) {
      // Not printable ASCII: the whole piece takes the Unicode rules.
      ascii = false;
      out.length = mark;
      wordStart = -1;
    } else if (wordStart >= 0) {
      pushAsciiWord(out, text, wordStart, i, hash); // ASCII punctuation ends a word
      wordStart = -1;
    }
  }
  if (unicodeStart >= 0) for (const t of unicodeTokens(text.slice(unicodeStart))) out.push(t);
  return out;
}

/** `tokens` by the Unicode rules alone (any text; `tokens` takes them only where needed). */
export function unicodeTokens(text: string): string[] {
  const out: string[] = [];
  for (const match of foldText(text).matchAll(WORD)) {
    const word = match[0];
    if (word.length > MAX_TOKEN_LENGTH * 4) continue;
    if (!CJK.test(word)) {
      if (word.length <= MAX_TOKEN_LENGTH) out.push(stem(word));
      continue;
    }
    // Mixed runs ("python3の使い方"): the non-CJK parts are words, CJK parts become pairs.
    let last = 0;
    for (const run of word.matchAll(CJK_RUNS)) {
      const start = run.index ?? 0;
      if (start > last) out.push(stem(word.slice(last, start)));
      const cjk = run[0];
      const chars = Array.from(cjk);
      if (chars.length === 1) out.push(cjk);
      for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
      last = start + cjk.length;
    }
    if (last < word.length) out.push(stem(word.slice(last)));
  }
  return out;
}

/** Stop words as the index holds them (stemmed: "does" is "doe" there). */
const STOP_WORDS = new Set(STOP_WORD_LIST.split(/\s+/).map(stem));

/**
 * The terms a query searches for: its distinct tokens without stop words (all of them when
 * only stop words are left, so "who are we" still finds something), at most MAX_QUERY_TERMS.
 */
export function queryTerms(query: string): string[] {
  const distinct = [...new Set(tokens(query))];
  const content = distinct.filter((t) => !STOP_WORDS.has(t));
  return (content.length > 0 ? content : distinct).slice(0, MAX_QUERY_TERMS);
}

/** The Orama tokenizer component: indexing keeps duplicates, a query gets distinct terms. */
export function createShardTokenizer(): Tokenizer {
  return {
    language: "english",
    // Orama's type wants the field; this tokenizer keeps its (bounded) cache elsewhere.
    normalizationCache: new Map(),
    tokenize(raw: string, _language?: string, prop?: string): string[] {
      if (typeof raw !== "string") return [];
      return prop === undefined ? queryTerms(raw) : tokens(raw);
    },
  };
}
