/**
 * Tokenize a text once, then count vocabularies by look-ups: one regex alternation per
 * vocabulary would rescan the text every time.
 */
import { codePointPrefix, countOccurrences } from "./unicode-regex.ts";

/** A token: a run of word characters, optionally one apostrophe and another run (`you'll`). */
const TOKEN = /[\p{L}\p{N}_]+(?:['’][\p{L}\p{N}_]+)?/gu;
/** Sorts after every token that starts with a given stem (tokens hold no U+FFFF). */
const AFTER_ALL = "\uffff";

export interface Vocab {
  readonly words: ReadonlySet<string>;
  readonly stems: readonly string[];
  /** Multi-word phrases as `" a b "`, matched on token boundaries. */
  readonly phrases: readonly string[];
}

export function tokenize(lowered: string): string[] {
  return lowered.match(TOKEN) ?? [];
}

/** Terms: `word`, `stem*` (prefix) or a multi-word `phrase` (with a space or hyphen). */
export function vocab(...terms: string[]): Vocab {
  const words = new Set<string>();
  const stems: string[] = [];
  const phrases: string[] = [];
  for (const term of terms) {
    const t = term.toLowerCase();
    if (t.includes(" ") || t.includes("-")) phrases.push(` ${tokenize(t).join(" ")} `);
    else if (t.endsWith("*")) stems.push(t.slice(0, -1));
    else words.add(t);
  }
  return { words, stems, phrases };
}

const phraseWordCache = new Map<string, readonly string[]>();

/** The words of a phrase `" a b "` (none for a phrase of another shape: it is then scanned for). */
function phraseWords(phrase: string): readonly string[] {
  let words = phraseWordCache.get(phrase);
  if (words === undefined) {
    const inner = phrase.slice(1, -1);
    const ok = phrase.length > 2 && phrase.startsWith(" ") && phrase.endsWith(" ");
    const split = ok ? inner.split(" ") : [];
    words = split.every((w) => w.length > 0) ? split : [];
    phraseWordCache.set(phrase, words);
  }
  return words;
}

function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The lowercased tokens of a text with their counts. */
export class Bag {
  /** Number of tokens. */
  readonly n: number;
  /** Token → count, in order of first occurrence. */
  readonly counts: ReadonlyMap<string, number>;
  /** `" tok tok … "`: phrases are found here. */
  readonly joined: string;
  #sorted: string[] | null = null;
  #cumulative: number[] = [];

  constructor(text: string, tokens?: readonly string[]) {
    const toks = tokens ?? tokenize(text.toLowerCase());
    this.n = toks.length;
    const counts = new Map<string, number>();
    for (const t of toks) counts.set(t, (counts.get(t) ?? 0) + 1);
    this.counts = counts;
    this.joined = ` ${toks.join(" ")} `;
  }

  /** Occurrences of the vocabulary's words, stems and phrases. */
  count(v: Vocab): number {
    let total = 0;
    for (const w of v.words) total += this.counts.get(w) ?? 0;
    if (v.stems.length) total += this.#stemCount(v.stems);
    for (const p of v.phrases) total += this.phraseCount(p);
    return total;
  }

  /** Non-overlapping occurrences of a phrase `" a b "` in `joined`. A phrase with a word the
   * text lacks occurs nowhere: most phrases on most pages, answered without scanning the text. */
  phraseCount(phrase: string): number {
    for (const word of phraseWords(phrase)) if (!this.counts.has(word)) return 0;
    return countOccurrences(this.joined, phrase);
  }

  get(token: string): number {
    return this.counts.get(token) ?? 0;
  }

  /** Tokens starting with any of the stems, each token once: the tokens that share a prefix
   * form one range of the sorted distinct tokens, found by bisection. */
  #stemCount(stems: readonly string[]): number {
    if (this.#sorted === null) {
      this.#sorted = [...this.counts.keys()].sort();
      let acc = 0;
      this.#cumulative = [0];
      for (const k of this.#sorted) {
        acc += this.counts.get(k) ?? 0;
        this.#cumulative.push(acc);
      }
    }
    const keys = this.#sorted;
    const ranges = stems
      .map((s) => [lowerBound(keys, s), lowerBound(keys, s + AFTER_ALL)] as const)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let total = 0;
    let end = 0; // merged: a token under two stems (one a prefix of the other) counts once
    for (const [start, stop] of ranges) {
      const lo = Math.max(start, end);
      if (stop > lo) {
        total += (this.#cumulative[stop] as number) - (this.#cumulative[lo] as number);
        end = stop;
      }
    }
    return total;
  }
}

/** `[bag of text, bag of its first `head` characters]`, sharing the bag when the text is short. */
export function bagsWithHead(text: string, head: number): [Bag, Bag] {
  const all = new Bag(text);
  const opening = codePointPrefix(text, head);
  return opening.length === text.length ? [all, all] : [all, new Bag(opening)];
}
