/**
 * One HTTP exchange through Bun's fetch, to the address the guard checked: no redirect followed,
 * bounded in time and size.
 *
 * Time: Bun's fetch has no separate connect phase to time, so the response headers must arrive
 * within connect + read timeout, then every body read within the read timeout (a slow drip is cut
 * there), and the whole exchange within connect + 2 x read timeout.
 * Size: a Content-Length over the cap ends it before the body; otherwise the (decompressed) body
 * is read in Bun's 256 KiB pieces and the connection dropped as soon as the cap is passed, so a
 * gzip/br/deflate/zstd bomb never inflates past one piece over the cap.
 */

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

async function readCapped(
  body: ReadableStream<Uint8Array>,
  limits: ExchangeLimits,
  encoded: boolean,
  controller: AbortController,
): Promise<Uint8Array> {
  const reader = body.getReader();
  const idle = watchdog(
    controller,
    limits.readTimeoutMs,
    `no body bytes for ${limits.readTimeoutMs / 1000} s`,
  );
  const onAbort = () => reader.cancel().catch(() => {});
  controller.signal.addEventListener("abort", onAbort, { once: true });
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (controller.signal.aborted) throw controller.signal.reason;
      if (done) break;
      idle.feed();
      size += value.byteLength;
      if (size > limits.maxBodyBytes) {
        throw new FetchAbort({
          kind: "too_large",
          detail: `body over ${limits.maxBodyBytes} bytes${encoded ? " (decompressed)" : ""}`,
        });
      }
      parts.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    throw err;
  } finally {
    idle.stop();
    controller.signal.removeEventListener("abort", onAbort);
  }
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
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
  const result = (body: Uint8Array, error: FetchFailure | null): FetchResult => ({
    url,
    status,
    headers,
    body,
    elapsedMs: now() - started,
    error,
    attempts: 1,
    address,
    redirects: [],
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
        signal: controller.signal,
        tls,
      } as RequestInit);
    } finally {
      waiting.stop();
    }
    status = response.status;
    headers = lowerHeaders(response.headers);
    const declared = Number(headers["content-length"] ?? Number.NaN);
    if (declared > limits.maxBodyBytes) {
      throw new FetchAbort({
        kind: "too_large",
        detail: `Content-Length ${declared} > ${limits.maxBodyBytes}`,
      });
    }
    const body = response.body
      ? await readCapped(response.body, limits, Boolean(headers["content-encoding"]), controller)
      : new Uint8Array(0);
    return result(body, null);
  } catch (err) {
    const reason = controller.signal.aborted ? controller.signal.reason : err;
    controller.abort(); // drop the connection: never drain the rest
    return result(new Uint8Array(0), failureFromThrown(reason));
  } finally {
    clearTimeout(total);
  }
}
