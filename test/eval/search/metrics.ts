/**
 * Ranking metrics of the search evaluation over pages (the reference's eval/search/metrics.py):
 * graded nDCG@k with gain 2^g − 1 and a log2(rank + 1) discount, and recall@k. A directory path
 * means its `index.html`, so `/docs/15/` and `/docs/15/index.html` are one page.
 */

/** `http://host/a/b.html#x` → `/a/b.html`; a directory path means its index.html. */
export function pagePath(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname || "/";
  } catch {
    path = url.split(/[?#]/)[0] || "/";
  }
  return normPath(path);
}

export function normPath(path: string): string {
  return path.endsWith("/") ? `${path}index.html` : path;
}

/** Page paths in first-seen order: a page's rank is the rank of its first chunk. */
export function dedupePages(urls: Iterable<string>): string[] {
  return [...new Set(Array.from(urls, pagePath))];
}

export function dcg(gains: readonly number[]): number {
  return gains.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
}

/** Judged pages with a grade above 0, paths normalised. */
function relevantPages(relevant: Readonly<Record<string, number>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [path, grade] of Object.entries(relevant)) {
    if (grade > 0) out.set(normPath(path), grade);
  }
  return out;
}

export function ndcgAtK(
  ranked: readonly string[],
  relevant: Readonly<Record<string, number>>,
  k = 10,
): number {
  const rel = relevantPages(relevant);
  if (rel.size === 0) return 0;
  const gains = ranked.slice(0, k).map((p) => rel.get(normPath(p)) ?? 0);
  const ideal = dcg([...rel.values()].sort((a, b) => b - a).slice(0, k));
  return ideal > 0 ? dcg(gains) / ideal : 0;
}

/** Share of the relevant pages (any grade above 0) found in the top k. */
export function recallAtK(
  ranked: readonly string[],
  relevant: Readonly<Record<string, number>>,
  k = 10,
): number {
  const rel = relevantPages(relevant);
  if (rel.size === 0) return 0;
  const top = new Set(ranked.slice(0, k).map(normPath));
  let found = 0;
  for (const p of rel.keys()) if (top.has(p)) found++;
  return found / rel.size;
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
