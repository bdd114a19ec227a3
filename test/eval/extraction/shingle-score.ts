/**
 * The article-extraction benchmark's scoring (ScrapingHub / Zyte article-extraction-benchmark,
 * as `shared/bench/extraction-articles/README.md` describes it): `\w+` tokens (Unicode), 4-token
 * shingles counted as multisets; per page tp/fp/fn normalized by their sum so long pages weigh no
 * more than short ones; precision and recall averaged over pages, F1 from those means; accuracy is
 * the share of pages whose token lists match exactly.
 */

// Python's `\w`: letters (L*), numbers (N*) and "_" (no combining marks).
const TOKEN = /[\p{L}\p{N}_]+/gu;

export function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

function shingles(toks: readonly string[], n = 4): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + n <= toks.length; i++) {
    const key = toks.slice(i, i + n).join("\u0000");
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

export interface PageScore {
  readonly precision: number;
  readonly recall: number;
  readonly exact: boolean;
}

export function scorePage(truth: string, predicted: string): PageScore {
  const tt = tokens(truth);
  const pt = tokens(predicted);
  const t = shingles(tt);
  const p = shingles(pt);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [k, n] of p) {
    const m = t.get(k) ?? 0;
    tp += Math.min(n, m);
    fp += Math.max(0, n - m);
  }
  for (const [k, m] of t) fn += Math.max(0, m - (p.get(k) ?? 0));
  const exact = tt.length === pt.length && tt.every((w, i) => w === pt[i]);
  if (fp === 0 && fn === 0) return { precision: 1, recall: 1, exact };
  // Normalizing by tp+fp+fn leaves the ratios unchanged.
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return { precision, recall, exact };
}

export interface SetScore {
  readonly f1: number;
  readonly precision: number;
  readonly recall: number;
  readonly accuracy: number;
  readonly pages: number;
}

export function scoreSet(scores: readonly PageScore[]): SetScore {
  const n = Math.max(scores.length, 1);
  const precision = scores.reduce((s, x) => s + x.precision, 0) / n;
  const recall = scores.reduce((s, x) => s + x.recall, 0) / n;
  const accuracy = scores.filter((x) => x.exact).length / n;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { f1, precision, recall, accuracy, pages: scores.length };
}

export function pageF1(s: PageScore): number {
  return s.precision + s.recall > 0 ? (2 * s.precision * s.recall) / (s.precision + s.recall) : 0;
}
