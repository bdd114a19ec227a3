/**
 * Fetch errors grouped by what a retry does with them (crawlee's model), with one `classify`
 * deciding:
 * - `nonRetryable`: the same request will fail the same way (SSRF, DNS, refused port, TLS, too
 *   large, bad scheme, protocol, 4xx, a Retry-After longer than we wait);
 * - `retryable`: worth another attempt after a backoff, spending a retry (reset or dropped
 *   connection, 5xx but 501/505, 503 without Retry-After);
 * - `throttled`: the host asked us to slow down (429, 503 with Retry-After): put back after the
 *   delay it named without spending a retry (bounded by the Retry-After cap);
 * - `critical`: the fetcher itself cannot go on (out of file descriptors): stop the pool.
 */

import type { FetchFailure, FetchResult } from "./fetch-result.ts";
import { parseRetryAfter } from "./fetch-result.ts";
import { DnsError, SsrfError } from "./guard.ts";

export type RetryClass = "nonRetryable" | "retryable" | "throttled" | "critical";

export interface RetryDecision {
  readonly retry: RetryClass;
  /** For `throttled`: the wait the host asked for (seconds), null when it named none. */
  readonly retryAfterS: number | null;
}

/** Thrown inside the fetcher to end an exchange with a given failure. */
export class FetchAbort extends Error {
  readonly failure: FetchFailure;
  constructor(failure: FetchFailure) {
    super(`${failure.kind}: ${failure.detail}`);
    this.failure = failure;
  }
}

/**
 * The coverage reason of a URL whose address the SSRF guard refused (at its robots.txt or its own
 * fetch): the crawler chose not to connect, so it is not "unreachable".
 */
export function refusedAddress(detail: string): string {
  return `refused by the address policy (SSRF guard): ${detail}; WEBCORPUS_ALLOW_NETWORKS allows a network`;
}

const TLS_CODES = /CERT|TLS|SSL|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME|ALTNAME/i;

/** What an error thrown by Bun's fetch (or our guard) means. */
export function failureFromThrown(err: unknown): FetchFailure {
  if (err instanceof FetchAbort) return err.failure;
  if (err instanceof SsrfError) return { kind: "ssrf", detail: err.message };
  if (err instanceof DnsError) return { kind: "dns", detail: err.message };
  const e = err as { name?: string; code?: string | number; message?: string };
  const code = typeof e.code === "string" ? e.code : "";
  const message = String(e.message ?? err).split(". For more information")[0] ?? "";
  if (e.name === "TimeoutError" || code === "ETIMEDOUT")
    return { kind: "timeout", detail: message };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME") {
    return { kind: "dns", detail: message };
  }
  if (code === "EMFILE" || code === "ENFILE" || code === "ENOMEM") {
    return { kind: "critical", detail: `${code}: ${message}` };
  }
  if (code === "ECONNREFUSED") return { kind: "connect", detail: `refused: ${message}` };
  if (code && TLS_CODES.test(code)) return { kind: "connect", detail: `tls: ${code}` };
  if (/zlib|brotli|zstd|decompress/i.test(code) || /zlib|brotli|zstd|decompress/i.test(message)) {
    return { kind: "protocol", detail: `bad content encoding: ${code || message}` };
  }
  if (/malformed|invalid.*(header|response|http)|HPE_/i.test(`${code} ${message}`)) {
    return { kind: "protocol", detail: message || code };
  }
  if (code === "ERR_INVALID_URL" || (e.name === "TypeError" && /invalid url/i.test(message))) {
    return { kind: "protocol", detail: `bad URL: ${message}` };
  }
  return { kind: "connect", detail: code ? `${code}: ${message}` : message };
}

const RETRY_STATUS = (status: number) => status >= 500 && status !== 501 && status !== 505;

/** What retrying does with this result (a 2xx/3xx/4xx answer is final: `nonRetryable`). */
export function classify(result: FetchResult, maxRetryAfterS: number): RetryDecision {
  const error = result.error;
  if (error) {
    if (error.kind === "critical") return { retry: "critical", retryAfterS: null };
    const transient =
      error.kind === "connect" &&
      !error.detail.startsWith("refused:") &&
      !error.detail.startsWith("tls:");
    return { retry: transient ? "retryable" : "nonRetryable", retryAfterS: null };
  }
  const status = result.status;
  const retryAfterS = parseRetryAfter(result.headers["retry-after"]);
  if (status === 429 || (status === 503 && retryAfterS !== null)) {
    if (retryAfterS !== null && retryAfterS > maxRetryAfterS) {
      return { retry: "nonRetryable", retryAfterS }; // more patience than we have
    }
    return { retry: "throttled", retryAfterS };
  }
  if (RETRY_STATUS(status)) return { retry: "retryable", retryAfterS: null };
  return { retry: "nonRetryable", retryAfterS: null };
}
