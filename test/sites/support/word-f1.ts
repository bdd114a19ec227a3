/** Word-level F1 of extracted text against the text a page is known to hold. */

export function words(text: string): string[] {
  return text.toLowerCase().match(/\p{L}[\p{L}\p{N}']*|\p{N}+/gu) ?? [];
}

/** F1 of the two texts' word multisets (1: the same words, as often). */
export function wordF1(extracted: string, known: string): number {
  const got = words(extracted);
  const want = words(known);
  if (got.length === 0 || want.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of want) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of got) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / got.length;
  const recall = common / want.length;
  return (2 * precision * recall) / (precision + recall);
}
