/**
 * A listing (a table of contents, an index, a tag or category page: type `listing`) stays
 * findable but ranks below the pages it lists: each listing hit moves down past the next
 * `LISTING_DEMOTION` hits that are not listings (or to the end). The order among the other hits
 * is kept. Pure: the caller passes each hit's page type.
 */
export const LISTING_DEMOTION = 3;

export function demoteListings<T>(
  hits: readonly T[],
  isListing: (hit: T) => boolean,
  by: number = LISTING_DEMOTION,
): T[] {
  if (by <= 0) return [...hits];
  const out: T[] = [];
  /** Listings waiting, each with how many non-listings must still pass it. */
  const waiting: { hit: T; left: number }[] = [];
  for (const hit of hits) {
    if (isListing(hit)) {
      waiting.push({ hit, left: by });
      continue;
    }
    out.push(hit);
    for (const w of waiting) w.left--;
    while (waiting.length && (waiting[0]?.left ?? 1) <= 0) {
      out.push((waiting.shift() as { hit: T }).hit);
    }
  }
  for (const w of waiting) out.push(w.hit);
  return out;
}
