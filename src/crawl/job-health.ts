/**
 * Whether a finished job indexed almost nothing of what it fetched: a crawl that fetched
 * thousands of pages and kept one (every page booked the duplicate of a canonical URL that
 * failed, say) must not read as a success. Such a job ends `partial`, this sentence its `error`.
 */
import type { FetchedOutcome } from "../db/jobs-repo.ts";

/** Below this many fetched URLs a job is too small to judge. */
export const HEALTH_MIN_FETCHED = 20;
/** The least share of the fetched URLs whose content should reach the index. */
export const HEALTH_MIN_SHARE = 0.1;

/** The warning for a job whose fetched URLs mostly did not reach the index; null when fine. */
export function indexedTooLittle(outcomes: readonly FetchedOutcome[]): string | null {
  let fetched = 0;
  let reached = 0;
  for (const o of outcomes) {
    fetched += o.count;
    reached += o.reached;
  }
  if (fetched < HEALTH_MIN_FETCHED || reached >= HEALTH_MIN_SHARE * fetched) return null;
  const rest = outcomes
    .map((o) => ({
      label: o.bucket === "duplicate" ? "duplicate of a page not indexed" : o.bucket,
      n: o.count - o.reached,
    }))
    .filter((o) => o.n > 0)
    .sort((a, b) => b.n - a.n)
    .slice(0, 4)
    .map((o) => `${o.n.toLocaleString("en-US")} ${o.label}`);
  return `only ${reached.toLocaleString("en-US")} of ${fetched.toLocaleString("en-US")} fetched pages reached the index (indexed, unchanged, or a duplicate of one that did); the rest: ${rest.join(", ")}`;
}
