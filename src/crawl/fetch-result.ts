/** What one HTTP exchange gave: the value the fetcher returns instead of throwing. */

export type FetchErrorKind =
  | "ssrf" // an address refused by the SSRF guard
  | "dns" // the name did not resolve
  | "connect" // refused, reset, dropped mid-body, TLS failure
  | "timeout"
  | "too_large" // body over max_body_bytes (decompressed), decompression bombs included
  | "bad_scheme" // not http/https (file:, ftp:, javascript: …)
  | "protocol" // malformed response, bad content encoding, unusable redirect
  | "redirect" // redirect loop or too many hops (fetchFollowing)
  | "robots" // disallowed by robots.txt (never sent)
  | "critical"; // the fetcher itself cannot go on (out of file descriptors, closed)

export interface FetchFailure {
  readonly kind: FetchErrorKind;
  readonly detail: string;
}

/**
 * One exchange. `status` is 0 when no response arrived (then `error` says why); `headers` keys
 * are lower-case; `body` is decompressed. A 3xx is returned as is by `fetch`; `fetchFollowing`
 * lists the hops it followed in `redirects`.
 */
export interface FetchResult {
  readonly url: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly elapsedMs: number;
  readonly error: FetchFailure | null;
  readonly attempts: number;
  /** The address connected to, when a connection was made. */
  readonly address: string | null;
  /** Hops followed before this one (fetchFollowing), oldest first. */
  readonly redirects: readonly RedirectHop[];
  /** Set when `body` is only the first bytes of a longer body (a `prefixBytes` request). */
  readonly truncated?: true;
}

export interface RedirectHop {
  readonly url: string;
  readonly status: number;
  readonly location: string;
}

export function failed(
  url: string,
  kind: FetchErrorKind,
  detail: string,
  extra: Partial<FetchResult> = {},
): FetchResult {
  return {
    url,
    status: 0,
    headers: {},
    body: new Uint8Array(0),
    elapsedMs: 0,
    attempts: 1,
    address: null,
    redirects: [],
    ...extra,
    error: { kind, detail },
  };
}

export const isOk = (r: FetchResult): boolean =>
  r.error === null && r.status >= 200 && r.status < 300;

/** The media type, lower-cased, without parameters ("" when absent). */
export const contentType = (r: FetchResult): string =>
  (r.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

export const location = (r: FetchResult): string | null => r.headers.location ?? null;

export const isRedirect = (r: FetchResult): boolean =>
  r.error === null && r.status >= 300 && r.status < 400 && r.status !== 304;

/** Seconds to wait from a `Retry-After` header (delta-seconds or HTTP-date), or null. */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs = Date.now(),
): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text);
  if (!/[a-z]/i.test(text)) return null;
  const when = Date.parse(text);
  if (Number.isNaN(when)) return null;
  return Math.max(0, (when - nowMs) / 1000);
}
