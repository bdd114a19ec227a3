/**
 * One HTTP exchange through Bun's fetch, to the address the guard checked: no redirect followed,
 * bounded in time and size.
 *
 * Time: Bun's fetch has no separate connect phase to time, so the response headers must arrive
 * within connect + read timeout, then every body read within the read timeout (a slow drip is cut
 * there), and the whole exchange within connect + 2 x read timeout.
 * Size: a Content-Length over the cap ends it before the body; otherwise the body is read as it
 * comes and the connection dropped as soon as the cap is passed. Bun is asked not to decompress
 * (it would inflate a whole network read at once, whatever the cap): a gzip/deflate/br/zstd body
 * is inflated here (body-decoder.ts), one network chunk at a time in pieces of at most 64 KiB, and
 * the inflating stops at the first piece past the cap, so a decompression bomb never inflates past
 * one piece over the cap (its compressed bytes count against the cap too). A request with
 * `prefixBytes` (robots.txt) keeps the first bytes of a longer body instead of refusing it.
 */

import { BodyDecoder, type Coding, codingOf, DecodeError } from "./body-decoder.ts";
import { FetchAbort, failureFromThrown } from "./fetch-errors.ts";
import type { FetchFailure, FetchResult } from "./fetch-result.ts";
import type { ConnectGuard } from "./guard.ts";

export interface ExchangeLimits {
  readonly connectTimeoutMs: number;
  readonly readTimeoutMs: number;
  readonly maxBodyBytes: number;
}

export interface ExchangeRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly method?: "GET" | "HEAD";
  /**
   * Keep only the first this many (decoded) body bytes, whatever the body cap: a longer body is
   * read that far, then the connection dropped, and the prefix returned with `truncated` (no
   * `too_large`, and no refusal on a Content-Length). For robots.txt (RFC 9309 §2.5).
   */
  readonly prefixBytes?: number;
}

export interface ExchangeDeps {
  readonly guard: ConnectGuard;
  /** Extra certificate authorities (PEM), for tests against a local TLS server. */
  readonly ca?: string | readonly string[];
  readonly now?: () => number;
}

function lowerHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    const k = key.toLowerCase();
    out[k] = out[k] === undefined ? value : `${out[k]}, ${value}`;
  });
  return out;
}

/** Aborts `controller` with a timeout failure when not fed for `ms` (one timer, refreshed). */
function watchdog(
  controller: AbortController,
  ms: number,
  detail: string,
): { feed(): void; stop(): void } {
  const timer = setTimeout(() => controller.abort(new FetchAbort({ kind: "timeout", detail })), ms);
  return { feed: () => timer.refresh(), stop: () => clearTimeout(timer) };
}

/** How much body to keep: refuse a longer one (`too_large`), or keep its first bytes (`cut`). */
interface BodyLimit {
  readonly bytes: number;
  readonly over: "refuse" | "cut";
}

const tooLarge = (detail: string) => new FetchAbort({ kind: "too_large", detail });

function joined(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * Reads the body (inflating it when `coding` says so) up to `limit.bytes`: past that it throws
 * `too_large` (`refuse`) or returns the first `limit.bytes` with `cut` (`cut`), reading no
 * further in either case. The raw bytes read count against the limit too.
 */
async function readBody(
  body: ReadableStream<Uint8Array>,
  limit: BodyLimit,
  coding: Coding | null,
  readTimeoutMs: number,
  controller: AbortController,
): Promise<{ body: Uint8Array; cut: boolean }> {
  const reader = body.getReader();
  const idle = watchdog(controller, readTimeoutMs, `no body bytes for ${readTimeoutMs / 1000} s`);
  const onAbort = () => reader.cancel().catch(() => {});
  controller.signal.addEventListener("abort", onAbort, { once: true });
  const parts: Uint8Array[] = [];
  let size = 0;
  let full = false;
  const take = (piece: Uint8Array): boolean => {
    const room = limit.bytes - size;
    if (piece.byteLength > room) {
      full = true;
      if (limit.over === "cut" && room > 0) parts.push(piece.subarray(0, room));
      size += Math.max(0, room);
      return false;
    }
    parts.push(piece);
    size += piece.byteLength;
    return true;
  };
  const decoder = coding ? new BodyDecoder(coding, take) : null;
  let raw = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (controller.signal.aborted) throw controller.signal.reason;
      if (done) break;
      idle.feed();
      if (!decoder) {
        if (!take(value)) break;
        continue;
      }
      raw += value.byteLength;
      if (raw > limit.bytes) {
        if (limit.over === "refuse") throw tooLarge(`body over ${limit.bytes} bytes (compressed)`);
        full = true;
        break;
      }
      await decoder.write(value);
      if (controller.signal.aborted) throw controller.signal.reason;
      if (full) break;
    }
    if (!full) await decoder?.end();
    if (full && limit.over === "refuse") {
      throw tooLarge(`body over ${limit.bytes} bytes${decoder ? " (decompressed)" : ""}`);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    if (err instanceof DecodeError) {
      throw new FetchAbort({ kind: "protocol", detail: `bad content encoding: ${err.message}` });
    }
    throw err;
  } finally {
    decoder?.close();
    idle.stop();
    controller.signal.removeEventListener("abort", onAbort);
  }
  if (full) reader.cancel().catch(() => {});
  return { body: joined(parts, size), cut: full };
}

/** Runs one exchange; never throws (every failure is a FetchResult with `error`). */
export async function exchange(
  request: ExchangeRequest,
  limits: ExchangeLimits,
  deps: ExchangeDeps,
): Promise<FetchResult> {
  const now = deps.now ?? performance.now.bind(performance);
  const started = now();
  const url = request.url.href;
  const controller = new AbortController();
  let status = 0;
  let headers: Record<string, string> = {};
  let address: string | null = null;
  const result = (
    body: Uint8Array,
    error: FetchFailure | null,
    truncated = false,
  ): FetchResult => ({
    url,
    status,
    headers,
    body,
    elapsedMs: now() - started,
    error,
    attempts: 1,
    address,
    redirects: [],
    ...(truncated ? { truncated: true as const } : {}),
  });
  const totalMs = limits.connectTimeoutMs + 2 * limits.readTimeoutMs;
  const total = setTimeout(
    () =>
      controller.abort(
        new FetchAbort({ kind: "timeout", detail: `exchange longer than ${totalMs / 1000} s` }),
      ),
    totalMs,
  );
  try {
    const target = await deps.guard.target(request.url);
    address = target.address;
    const tls: { serverName?: string; ca?: string | string[] } = {};
    if (target.serverName) tls.serverName = target.serverName;
    if (deps.ca) tls.ca = typeof deps.ca === "string" ? deps.ca : [...deps.ca];
    const headerMs = limits.connectTimeoutMs + limits.readTimeoutMs;
    const waiting = watchdog(controller, headerMs, `no response within ${headerMs / 1000} s`);
    let response: Response;
    try {
      response = await fetch(target.fetchUrl, {
        method: request.method ?? "GET",
        headers: { ...request.headers, Host: target.hostHeader },
        redirect: "manual",
        decompress: false, // inflated here, piece by piece (body-decoder.ts)
        signal: controller.signal,
        tls,
      } as RequestInit);
    } finally {
      waiting.stop();
    }
    status = response.status;
    headers = lowerHeaders(response.headers);
    const prefix = request.prefixBytes;
    const declared = Number(headers["content-length"] ?? Number.NaN);
    if (prefix === undefined && declared > limits.maxBodyBytes) {
      throw tooLarge(`Content-Length ${declared} > ${limits.maxBodyBytes}`);
    }
    if (!response.body) return result(new Uint8Array(0), null);
    const limit: BodyLimit =
      prefix === undefined
        ? { bytes: limits.maxBodyBytes, over: "refuse" }
        : { bytes: prefix, over: "cut" };
    const coding = codingOf(headers["content-encoding"]);
    const read = await readBody(response.body, limit, coding, limits.readTimeoutMs, controller);
    if (read.cut) controller.abort(); // drop the connection: never drain the rest
    return result(read.body, null, read.cut);
  } catch (err) {
    const reason = controller.signal.aborted ? controller.signal.reason : err;
    controller.abort(); // drop the connection: never drain the rest
    return result(new Uint8Array(0), failureFromThrown(reason));
  } finally {
    clearTimeout(total);
  }
}
