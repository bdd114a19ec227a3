/** Scores of predicted labels against gold ones. */

/** F1 of each gold label (labels predicted but never gold are not averaged, as the reference). */
export function perClassF1(gold: readonly string[], pred: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const label of [...new Set(gold)].sort()) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    gold.forEach((g, i) => {
      const p = pred[i];
      if (g === label && p === label) tp++;
      else if (p === label) fp++;
      else if (g === label) fn++;
    });
    out.set(label, tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn));
  }
  return out;
}

export function macroF1(gold: readonly string[], pred: readonly string[]): number {
  const f = [...perClassF1(gold, pred).values()];
  return f.length ? f.reduce((a, b) => a + b, 0) / f.length : 0;
}

export function accuracy<T>(gold: readonly T[], pred: readonly T[]): number {
  return gold.length ? gold.filter((g, i) => g === pred[i]).length / gold.length : 0;
}

export function binaryF1(gold: readonly boolean[], pred: readonly boolean[]): number {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  gold.forEach((g, i) => {
    if (g && pred[i]) tp++;
    else if (pred[i]) fp++;
    else if (g) fn++;
  });
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

/** Ranks from 1, ties sharing their average rank. */
function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length).fill(0);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]?.[0] === order[i]?.[0]) j++;
    for (let k = i; k <= j; k++) r[order[k]?.[1] as number] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/** Spearman's rank correlation (Pearson over tie-averaged ranks). */
export function spearman(a: readonly number[], b: readonly number[]): number {
  if (a.length < 3) return Number.NaN;
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ma = mean(ra);
  const mb = mean(rb);
  let num = 0;
  let da = 0;
  let db = 0;
  ra.forEach((x, i) => {
    const y = rb[i] as number;
    num += (x - ma) * (y - mb);
    da += (x - ma) ** 2;
    db += (y - mb) ** 2;
  });
  return num / Math.sqrt(da * db);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}
