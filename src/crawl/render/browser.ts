/**
 * Chromium for the crawl (screenshots and rendering), driven by playwright-core: finding Debian's
 * binary, starting it with every request left to the page's route (what interception cannot see,
 * WebSockets and WebRTC, goes to a proxy that does not exist), and answering each routed request
 * through the crawler's own fetch (SSRF guard, connect-to, body caps, robots.txt, pacing) or
 * refusing it. Every Playwright call has a deadline: a browser that dies mid-call is reported,
 * never waited on for ever.
 */
import { accessSync, constants, statSync } from "node:fs";
import type { Browser, BrowserContext, Route } from "playwright-core";
import { refusedAddress } from "../fetch-errors.ts";
import type { FetchResult } from "../fetch-result.ts";

/** Opening or closing a context or page takes milliseconds; longer means the browser died. */
export const ANSWER_MS = 15_000;
export const DEAD_PROXY = "http://127.0.0.1:9";
const FLAGS = [
  "--headless",
  "--disable-gpu",
  "--disable-extensions",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  `--proxy-server=${DEAD_PROXY}`,
  "--proxy-bypass-list=<-loopback>",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  // A page's JavaScript heap stays bounded: a runaway app fails its render, not the machine.
  "--js-flags=--max-old-space-size=256",
];
const PASS_HEADERS = ["content-type", "location", "content-language", "last-modified", "etag"];
const DEBIAN_BINARY = "/usr/lib/chromium/chromium";
const MAX_REQUESTS_PER_PAGE = 300;
/** Resource types a render does not need (a screenshot does). */
const MEDIA = new Set(["image", "media", "font"]);

/** No browser (missing, does not start, or died). */
export class BrowserUnavailable extends Error {
  override readonly name: string = "BrowserUnavailable";
}

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The browser: the configured path, else Debian's binary itself (its /usr/bin/chromium is a
 * shell wrapper), else the usual names on PATH.
 */
export function findChromium(configured: string | null): string {
  if (configured !== null) {
    if (executable(configured)) return configured;
    throw new BrowserUnavailable(`no browser at WEBCORPUS_CHROMIUM_PATH=${configured}`);
  }
  if (executable(DEBIAN_BINARY)) return DEBIAN_BINARY;
  for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]) {
    const found = Bun.which(name);
    if (found) return found;
  }
  throw new BrowserUnavailable(
    "no Chromium found: install it (Debian: apt-get install chromium) or set WEBCORPUS_CHROMIUM_PATH",
  );
}

export const firstLine = (err: unknown): string =>
  (
    String(err instanceof Error ? err.message : err)
      .trim()
      .split("\n")[0] ?? ""
  ).slice(0, 300);

/** `call`'s result, or BrowserUnavailable once `ms` pass: a Playwright call can wait for ever
 * when the browser dies during it. */
export async function answered<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BrowserUnavailable(`the browser did not answer in ${ms / 1000} s`)),
      ms,
    );
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export type BrowserFetch = (url: string) => Promise<FetchResult>;

/** Starts Chromium (sandboxed unless running as root, where its sandbox cannot run). */
export async function launchChromium(path: string): Promise<Browser> {
  const asRoot = process.getuid?.() === 0;
  try {
    // Loaded here, not at start-up: it costs ~250 CPU ms, and most runs need no browser.
    const { chromium } = await import("playwright-core");
    return await answered(
      chromium.launch({
        executablePath: path,
        args: asRoot ? [...FLAGS, "--no-sandbox"] : FLAGS,
        chromiumSandbox: !asRoot,
        timeout: 30_000,
      }),
      30_000 + ANSWER_MS,
    );
  } catch (err) {
    throw new BrowserUnavailable(`${path} did not start: ${firstLine(err)}`);
  }
}

/** A new context, or BrowserUnavailable when the browser does not give one. */
export async function openContext(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0],
): Promise<BrowserContext> {
  if (!browser.isConnected()) throw new BrowserUnavailable("the browser has stopped");
  try {
    return await answered(browser.newContext(options), ANSWER_MS);
  } catch (err) {
    if (err instanceof BrowserUnavailable) throw err;
    throw new BrowserUnavailable(`the browser failed: ${firstLine(err)}`);
  }
}

/** Scripts and stylesheets a job's renders share: an app's bundle is fetched once, not per page
 * (the browser's own cache is off while every request is routed). */
export class ResourceCache {
  readonly #entries = new Map<string, FetchResult>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(url: string): FetchResult | undefined {
    return this.#entries.get(url);
  }

  put(result: FetchResult): void {
    const size = result.body.byteLength;
    if (result.status !== 200 || this.#entries.has(result.url)) return;
    if (this.#bytes + size > this.#maxBytes) return;
    this.#entries.set(result.url, result);
    this.#bytes += size;
  }
}

const CACHED = new Set(["script", "stylesheet"]);

export interface RouteOptions {
  /** Images, media and fonts are refused unasked (a render); a screenshot loads them. */
  readonly media: boolean;
  /** Answers a URL without the fetch (the page's own body, already fetched). */
  readonly preset?: (url: string) => FetchResult | undefined;
  readonly cache?: ResourceCache;
  /** A request the fetch refused (SSRF guard, robots.txt, a failure) or the page may not make. */
  readonly onRefused?: (url: string, reason: string) => void;
  /** Requests start and end (for waiting until the page's network is quiet). */
  readonly onStart?: () => void;
  readonly onEnd?: () => void;
}

/** Every request of the context answered by `fetch` (or refused). */
export async function routeThrough(
  context: BrowserContext,
  fetch: BrowserFetch,
  options: RouteOptions,
): Promise<void> {
  let requests = 0;
  const answer = async (route: Route) => {
    requests++;
    const request = route.request();
    const url = request.url();
    if (!options.media && MEDIA.has(request.resourceType())) {
      await route.abort("blockedbyclient");
      return;
    }
    if (!["GET", "HEAD"].includes(request.method()) || requests > MAX_REQUESTS_PER_PAGE) {
      options.onRefused?.(
        url,
        requests > MAX_REQUESTS_PER_PAGE
          ? `more than ${MAX_REQUESTS_PER_PAGE} requests`
          : `method ${request.method()}`,
      );
      await route.abort("blockedbyclient");
      return;
    }
    options.onStart?.();
    try {
      const cacheable = options.cache !== undefined && CACHED.has(request.resourceType());
      let result = options.preset?.(url) ?? (cacheable ? options.cache?.get(url) : undefined);
      if (result === undefined) {
        result = await fetch(url);
        if (cacheable) options.cache?.put(result);
      }
      if (result.status === 0) {
        const kind = result.error?.kind ?? "failed";
        const detail = result.error?.detail ?? "no answer";
        options.onRefused?.(url, kind === "ssrf" ? refusedAddress(detail) : `${kind}: ${detail}`);
        await route.abort(kind === "ssrf" ? "addressunreachable" : "failed");
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of PASS_HEADERS) {
        const value = result.headers[name];
        if (value !== undefined) headers[name] = value;
      }
      await route.fulfill({ status: result.status, headers, body: Buffer.from(result.body) });
    } finally {
      options.onEnd?.();
    }
  };
  await answered(context.route("**/*", answer), ANSWER_MS);
}
