/** The coverage buckets (CONTRACT.md): every URL a job knows is in exactly one. */

export const BUCKETS = [
  "indexed",
  "unchanged",
  "redirected",
  "duplicate",
  "robots",
  "noindex",
  "notHtml",
  "clientError",
  "serverError",
  "fetchError",
  "filtered",
  "pending",
  "budget",
  "stoppedEarly",
] as const;

export type Bucket = (typeof BUCKETS)[number];

/** What each bucket means, shown with its count in the job view. */
export const BUCKET_REASONS: Readonly<Record<Bucket, string>> = {
  indexed: "fetched, extracted and stored; searchable by text",
  unchanged: "already indexed and not modified since (304, same content, or not re-fetched)",
  redirected: "answered with a redirect; the target is tracked as its own URL",
  duplicate: "same content as another page, or its canonical URL is another page, in the index",
  robots: "disallowed by robots.txt (or robots.txt unreachable)",
  noindex: "meta robots or X-Robots-Tag noindex",
  notHtml: "not an HTML page",
  clientError: "answered 4xx",
  serverError: "answered 5xx after retries",
  fetchError: "no usable answer: timeout, connection error, too large, refused address",
  filtered: "out of scope by rule: crawler traps, depth, URL length, excluded patterns",
  pending: "queued or being fetched",
  budget: "not fetched: the job's page budget was spent",
  stoppedEarly: "not fetched: the job was cancelled or stopped before reaching it",
};

export function isBucket(value: string): value is Bucket {
  return (BUCKETS as readonly string[]).includes(value);
}
