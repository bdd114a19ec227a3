/**
 * Splitting blocks larger than a chunk and packing pieces into chunks. Pieces are joined by
 * whitespace, and word-piece counts add up over whitespace (see `word-pieces.ts`), so these
 * helpers return (text, tokens) pairs and never re-count what they assembled.
 */
import { type Block, blockText } from "./markdown-sections.ts";
import type { TokenCounter } from "./word-pieces.ts";

export interface Piece {
  readonly text: string;
  readonly tokens: number;
}

const SENTENCE_END = /(?<=[.!?…。！？])\s+/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const WHITESPACE = /\s+/;
const NON_ASCII = /[\u0080-\uffff]/;

/** Greedy packing of counted pieces joined by `sep`, each pack within `budget`. */
function pack(texts: readonly string[], counts: readonly number[], budget: number, sep: string) {
  const out: Piece[] = [];
  let current: string[] = [];
  let used = 0;
  texts.forEach((text, i) => {
    const n = counts[i] ?? 0;
    if (current.length > 0 && used + n > budget) {
      out.push({ text: current.join(sep), tokens: used });
      current = [];
      used = 0;
    }
    current.push(text);
    used += n;
  });
  if (current.length > 0) out.push({ text: current.join(sep), tokens: used });
  return out;
}

/** Words cut in halves until each fits (text with more word pieces than characters, e.g. jamo). */
function halveOversized(words: string[], counter: TokenCounter, budget: number): Piece[] {
  const out: Piece[] = [];
  for (const word of words) {
    const n = counter.countPiece(word);
    const chars = Array.from(word);
    if (n <= budget || chars.length < 2) {
      out.push({ text: word, tokens: n });
      continue;
    }
    const half = chars.length >> 1;
    const parts = [chars.slice(0, half).join(""), chars.slice(half).join("")];
    out.push(...halveOversized(parts, counter, budget));
  }
  return out;
}

/** Last resort: pack words; a word longer than the budget is cut into runs of characters. */
function splitHard(text: string, counter: TokenCounter, budget: number): Piece[] {
  const words: string[] = [];
  for (const word of text.split(WHITESPACE)) {
    if (word === "") continue;
    const chars = NON_ASCII.test(word) ? Array.from(word) : null;
    const length = chars ? chars.length : word.length;
    for (let j = 0; j < length; j += budget) {
      words.push(chars ? chars.slice(j, j + budget).join("") : word.slice(j, j + budget));
    }
  }
  const pieces = halveOversized(words, counter, budget);
  return pack(
    pieces.map((p) => p.text),
    pieces.map((p) => p.tokens),
    budget,
    " ",
  );
}

/** Units (lines, sentences) packed within `budget`; a unit too large is split further. */
function splitUnits(units: readonly string[], counter: TokenCounter, budget: number, sep: string) {
  const texts: string[] = [];
  const counts: number[] = [];
  for (const unit of units) {
    const n = counter.count(unit);
    if (n <= budget) {
      texts.push(unit);
      counts.push(n);
      continue;
    }
    const sentences = unit.split(SENTENCE_END).filter((s) => s.trim() !== "");
    const parts =
      sentences.length > 1
        ? splitUnits(sentences, counter, budget, " ")
        : splitHard(unit, counter, budget);
    for (const part of parts) {
      texts.push(part.text);
      counts.push(part.tokens);
    }
  }
  return pack(texts, counts, budget, sep);
}

/** One oversized block in pieces; code and tables only at line boundaries, with fences/header. */
export function splitBlock(block: Block, counter: TokenCounter, budget: number): Piece[] {
  const lines = block.lines;
  if (block.kind === "code") {
    const opening = lines[0] ?? "```";
    const marker = /[`~]{3,}/.exec(opening)?.[0] ?? "```";
    const closing = block.closed ? (lines[lines.length - 1] ?? marker) : marker;
    const body = block.closed ? lines.slice(1, -1) : lines.slice(1);
    const frame = counter.count(opening) + counter.count(closing);
    const pieces = splitUnits(
      body.length > 0 ? body : [""],
      counter,
      Math.max(8, budget - frame),
      "\n",
    );
    return pieces.map((p) => ({
      text: `${opening}\n${p.text}\n${closing}`,
      tokens: p.tokens + frame,
    }));
  }
  if (block.kind === "table") {
    const hasSeparator = lines.length > 2 && TABLE_SEPARATOR.test(lines[1] ?? "");
    const headText = hasSeparator ? lines.slice(0, 2).join("\n") : "";
    const headTokens = hasSeparator ? counter.count(headText) : 0;
    if (headTokens === 0 || headTokens > budget >> 1) {
      return splitUnits(lines, counter, budget, "\n");
    }
    const pieces = splitUnits(lines.slice(2), counter, budget - headTokens, "\n");
    return pieces.map((p) => ({ text: `${headText}\n${p.text}`, tokens: p.tokens + headTokens }));
  }
  return splitUnits(lines.length > 1 ? lines : [blockText(block)], counter, budget, "\n");
}

/** Trailing whole sentences of `text` within `overlap` tokens (none after code or a table). */
function tailOverlap(text: string, counter: TokenCounter, overlap: number): Piece | null {
  if (overlap <= 0 || text.includes("```") || text.includes("~~~")) return null;
  if (text.trimStart().startsWith("|")) return null;
  const at = text.lastIndexOf("\n\n");
  const lastPara = at < 0 ? text : text.slice(at + 2);
  if (lastPara.replace(/^[> \t\n]+/, "").startsWith("|")) return null; // rows aren't sentences
  const sentences = lastPara.split(SENTENCE_END).filter((s) => s.trim() !== "");
  const kept: string[] = [];
  let used = 0;
  let n = 0;
  for (let i = sentences.length - 1; i >= 0; i--) {
    const sentence = sentences[i] as string;
    n = counter.count(sentence);
    if (used + n > overlap) break;
    kept.push(sentence);
    used += n;
  }
  if (kept.length > 0 && kept.length === sentences.length) {
    kept.pop(); // the whole paragraph fits: keep all but its first sentence
    used -= n;
  }
  return kept.length > 0 ? { text: kept.reverse().join(" ").trim(), tokens: used } : null;
}

/** Greedy packing joined by blank lines; each new chunk starts with the tail of the last one. */
export function packWithOverlap(
  pieces: readonly Piece[],
  counter: TokenCounter,
  budget: number,
  overlap: number,
): Piece[] {
  const out: Piece[] = [];
  let current: string[] = [];
  let used = 0;
  for (const piece of pieces) {
    if (current.length > 0 && used + piece.tokens > budget) {
      const text = current.join("\n\n");
      out.push({ text, tokens: used });
      const tail = tailOverlap(text, counter, Math.min(overlap, budget - piece.tokens));
      current = tail ? [tail.text] : [];
      used = tail ? tail.tokens : 0;
    }
    current.push(piece.text);
    used += piece.tokens;
  }
  if (current.length > 0) out.push({ text: current.join("\n\n"), tokens: used });
  return out.map((p) => ({ text: p.text.trim(), tokens: p.tokens })).filter((p) => p.text !== "");
}
