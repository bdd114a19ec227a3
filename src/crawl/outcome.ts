/**
 * What a page fetch means for the coverage ledger: the bucket and reason of a FetchResult, or
 * `page` when it is an HTML page or a PDF to process. Robots and scope decisions made before fetching
 * (`robots`, `filtered`) come from robots.ts and trap-guard.ts; this is everything after.
 */
import { isPdf } from "../extract/pdf/pdf-type.ts";
import { refusedAddress } from "./fetch-errors.ts";
import { contentType, type FetchResult, isRedirect } from "./fetch-result.ts";
import { normalizeUrl } from "./urls.ts";

export type FetchBucket =
  | "redirected"
  | "unchanged"
  | "noindex"
  | "notHtml"
  | "clientError"
  | "serverError"
  | "fetchError"
  | "robots";

export type FetchOutcome =
  | { readonly kind: "page"; readonly status: number }
  | {
      readonly kind: "booked";
      readonly bucket: FetchBucket;
      readonly reason: string;
      readonly status: number;
      /** For `redirected`: the normalized target (null when unusable). */
      readonly target?: string | null;
    };

export const HTML_TYPES: ReadonlySet<string> = new Set(["text/html", "application/xhtml+xml"]);

/** True when a body without a usable Content-Type starts like an HTML document. */
export function sniffHtml(body: Uint8Array): boolean {
  const head = new TextDecoder().decode(body.subarray(0, 512)).trimStart().toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html") || head.includes("<body");
}

/** An HTML page by its Content-Type, or by its first bytes when it names none. */
export function isHtml(result: FetchResult): boolean {
  const type = contentType(result);
  return type ? HTML_TYPES.has(type) : sniffHtml(result.body);
}

function noindexHeader(result: FetchResult): boolean {
  const value = (result.headers["x-robots-tag"] ?? "").toLowerCase();
  return value.includes("noindex") || value.split(",").some((v) => v.trim() === "none");
}

/** The ledger's reading of one page fetch (a single hop: redirects are booked, not followed). */
export function fetchOutcome(result: FetchResult): FetchOutcome {
  const status = result.status;
  const booked = (bucket: FetchBucket, reason: string, target?: string | null): FetchOutcome =>
    target === undefined
      ? { kind: "booked", bucket, reason, status }
      : { kind: "booked", bucket, reason, status, target };
  if (result.error) {
    const bucket = result.error.kind === "robots" ? "robots" : "fetchError";
    if (result.error.kind === "ssrf") return booked(bucket, refusedAddress(result.error.detail));
    return booked(bucket, `${result.error.kind}: ${result.error.detail}`);
  }
  if (status === 304) return booked("unchanged", "304 not modified");
  if (isRedirect(result)) {
    const location = result.headers.location?.trim();
    const target = location ? normalizeUrl(location, result.url) : null;
    if (target === null) return booked("fetchError", `HTTP ${status} with an unusable Location`);
    return booked("redirected", `HTTP ${status} to ${target}`, target);
  }
  if (status >= 500) return booked("serverError", `HTTP ${status}`);
  if (status >= 400) return booked("clientError", `HTTP ${status}`);
  if (status < 200 || status >= 300) return booked("fetchError", `unexpected HTTP ${status}`);
  if (!isHtml(result) && !isPdf(contentType(result), result.body))
    return booked("notHtml", `content type ${contentType(result) || "unknown"}`);
  if (noindexHeader(result)) return booked("noindex", "X-Robots-Tag: noindex");
  return { kind: "page", status };
}
