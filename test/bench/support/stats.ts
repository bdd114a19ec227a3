/** The median of a sample: the middle value, or the mean of the two middle ones; 0 when empty. */
export function median(xs: readonly number[]): number {
  const s = xs.toSorted((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}
