/**
 * Exact word-piece counts for all-MiniLM-L6-v2's tokenizer (BERT uncased), in plain TypeScript, so
 * that chunking runs in the crawl workers without the native tokenizer.
 *
 * The model's tokenizer.json declares BertNormalizer, BertPreTokenizer (see `bert-text.ts`) and
 * WordPiece ("##" continuations; one [UNK] for a word of more than 100 characters or with no
 * match), after its added tokens ([CLS], [SEP], ...) are cut out of the raw text. None of these
 * steps acts across whitespace, so a text's count is the sum of the counts of its
 * whitespace-separated pieces: `count` sums cached per-piece counts and tokenizes only pieces it
 * has never seen, looked up by their characters without cutting them out (a substring and a
 * `Map` lookup per piece were two thirds of chunking's time). The test suite checks it against
 * the native tokenizer fastembed embeds with.
 */
import { CharClass, classOfChar, normalizeChar } from "./bert-text.ts";
import { HASH_SEED, hashSlice, hashStep, SliceCache } from "./slice-cache.ts";

const ADDED_TOKEN = /\[(?:PAD|UNK|CLS|SEP|MASK)\]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: BERT deletes these control characters
const ASCII_DELETED = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const ASCII_PUNCT = /^[!-/:-@[-`{-~]$/;
const ASCII_SPLIT = /([!-/:-@[-`{-~])/;
const NON_ASCII = /[\u0080-\uffff]/;
const MAX_WORD_CHARS = 100;
const CACHE_MAX = 100_000;

/** Counts word pieces exactly as the model's tokenizer does, special tokens excluded. */
export interface TokenCounter {
  /** Word pieces in `text`, without [CLS]/[SEP]. */
  count(text: string): number;
  /** Word pieces in a string without whitespace (one piece), e.g. a word being packed. */
  countPiece(piece: string): number;
}

/** The WordPiece vocabulary of a tokenizer.json (the keys of `model.vocab`). */
export function vocabularyOf(tokenizerJson: unknown): string[] {
  const model = (tokenizerJson as { model?: { type?: unknown; vocab?: unknown } }).model;
  if (model?.type !== "WordPiece" || typeof model.vocab !== "object" || model.vocab === null) {
    throw new Error("tokenizer.json: not a WordPiece model");
  }
  return Object.keys(model.vocab);
}

export function createTokenCounter(vocabulary: Iterable<string>): TokenCounter {
  const vocab = new Set(vocabulary);
  // No match is longer than the longest entry: start the longest-first search there.
  let longest = 0;
  for (const entry of vocab)
    longest = Math.max(longest, Array.from(entry.replace(/^##/, "")).length);
  const pieces = new SliceCache<number>(CACHE_MAX);
  const words = new Map<string, number>();

  // The vocabulary again as sets looked up by a slice of the word (slice-cache.ts): an ASCII
  // word's longest-match search then cuts no substring per candidate.
  const heads = new SliceCache<true>(vocab.size);
  const tails = new SliceCache<true>(vocab.size);
  for (const entry of vocab) {
    const tail = entry.length > 2 && entry.startsWith("##");
    const key = tail ? entry.slice(2) : entry;
    const hash = hashSlice(key);
    const set = tail ? tails : heads;
    if (set.get(key, 0, key.length, hash) === undefined) set.set(key, hash, true);
  }
  const prefixHashes = new Int32Array(longest);

  /** WordPiece on an ASCII word: greedy longest match first, by slices of `word`. */
  const asciiWordPieces = (word: string): number => {
    const n = word.length;
    if (n > MAX_WORD_CHARS) return 1;
    let count = 0;
    let start = 0;
    while (start < n) {
      const max = Math.min(n, start + longest);
      let hash = HASH_SEED;
      for (let k = start; k < max; k++) {
        hash = hashStep(hash, word.charCodeAt(k));
        prefixHashes[k - start] = hash;
      }
      const set = start === 0 ? heads : tails;
      let end = max;
      while (
        end > start &&
        set.get(word, start, end, prefixHashes[end - start - 1] as number) === undefined
      )
        end -= 1;
      if (end === start) return 1; // no piece matches: the whole word is one [UNK]
      count += 1;
      start = end;
    }
    return count;
  };

  /** WordPiece on one normalised, pre-tokenized word: greedy longest match first. */
  const wordPieces = (word: string): number => {
    const cached = words.get(word);
    if (cached !== undefined) return cached;
    const count = NON_ASCII.test(word)
      ? unicodeWordPieces(Array.from(word))
      : asciiWordPieces(word);
    if (words.size >= CACHE_MAX) words.clear();
    words.set(word, count);
    return count;
  };

  const unicodeWordPieces = (chars: readonly string[]): number => {
    const n = chars.length;
    if (n > MAX_WORD_CHARS) return 1;
    const slice = (a: number, b: number) => chars.slice(a, b).join("");
    let count = 0;
    let start = 0;
    while (start < n) {
      let end = Math.min(n, start + longest);
      while (end > start && !vocab.has(start === 0 ? slice(0, end) : `##${slice(start, end)}`)) {
        end -= 1;
      }
      if (end === start) return 1; // no piece matches: the whole word is one [UNK]
      count += 1;
      start = end;
    }
    return count;
  };

  /** ASCII: delete controls, isolate punctuation (one piece each), lowercase the runs between. */
  const asciiPieces = (text: string): number => {
    let count = 0;
    let start = -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) {
        if (start < 0) start = i;
        continue;
      }
      // A deleted control character joins its neighbours into one word: the general path.
      if (c < 33 || c === 127) return asciiPiecesWithControls(text);
      if (start >= 0) count += wordPieces(text.slice(start, i).toLowerCase());
      start = -1;
      count += 1; // punctuation is a piece of its own
    }
    return start < 0 ? count : count + wordPieces(text.slice(start).toLowerCase());
  };

  const asciiPiecesWithControls = (text: string): number => {
    let count = 0;
    for (const part of text.replace(ASCII_DELETED, "").split(ASCII_SPLIT)) {
      if (part !== "") count += ASCII_PUNCT.test(part) ? 1 : wordPieces(part.toLowerCase());
    }
    return count;
  };

  /** BertNormalizer then BertPreTokenizer, character by character as the Rust code does. */
  const unicodePieces = (text: string): number => {
    let count = 0;
    let word = "";
    for (const ch of text) {
      for (const n of normalizeChar(ch.codePointAt(0) ?? 0)) {
        const cls = classOfChar(n.codePointAt(0) ?? 0);
        if (cls === CharClass.Word) {
          word += n;
          continue;
        }
        if (word !== "") count += wordPieces(word);
        word = "";
        if (cls === CharClass.Isolated) count += 1;
      }
    }
    return word === "" ? count : count + wordPieces(word);
  };

  /** One piece: its added tokens ([CLS], ...) count one each, the text between them as usual. */
  const countUncached = (piece: string): number => {
    const parts = piece.includes("[") ? piece.split(ADDED_TOKEN) : [piece];
    let count = parts.length - 1;
    for (const part of parts) {
      if (part !== "") count += NON_ASCII.test(part) ? unicodePieces(part) : asciiPieces(part);
    }
    return count;
  };

  /** `text[start, end)`, a piece whose characters hash to `hash`. */
  const pieceAt = (text: string, start: number, end: number, hash: number): number => {
    let count = pieces.get(text, start, end, hash);
    if (count === undefined) {
      const piece = text.slice(start, end);
      count = countUncached(piece);
      pieces.set(piece, hash, count);
    }
    return count;
  };

  const countPiece = (piece: string): number => pieceAt(piece, 0, piece.length, hashSlice(piece));

  const count = (text: string): number => {
    let total = 0;
    let start = -1;
    let hash = HASH_SEED;
    for (let i = 0; i <= text.length; i++) {
      const c = i === text.length ? 32 : text.charCodeAt(i);
      if (isBertSpace(c)) {
        if (start >= 0) total += pieceAt(text, start, i, hash);
        start = -1;
      } else {
        if (start < 0) {
          start = i;
          hash = HASH_SEED;
        }
        hash = hashStep(hash, c);
      }
    }
    return total;
  };

  return { count, countPiece };
}

/** BERT's whitespace once control characters are deleted: Rust's `char::is_whitespace` less Cc. */
function isBertSpace(c: number): boolean {
  if (c <= 32) return c === 32 || c === 10 || c === 9 || c === 13;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}
