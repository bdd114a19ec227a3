/**
 * Page screenshots: Chromium, driven by playwright-core, renders pages whose every request the
 * crawler's fetcher answers (SSRF guard, connect-to, body limits, robots.txt, the crawl's
 * pacing) or refuses. What interception cannot see (WebSockets, WebRTC) goes to a proxy that
 * does not exist. Every call has a deadline: a browser that dies mid-call is reported, never
 * waited on for ever.
 */
import { accessSync, constants, statSync } from "node:fs";
import type { Browser, Route } from "playwright-core";
import type { FetchResult } from "./fetch-result.ts";

export const WIDTH = 1280;
export const HEIGHT = 800;
const MAX_REQUESTS_PER_PAGE = 300;
/** Opening or closing a context or page takes milliseconds; longer means the browser died. */
const ANSWER_MS = 15_000;
const DEAD_PROXY = "http://127.0.0.1:9";
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
];
const PASS_HEADERS = ["content-type", "location", "content-language", "last-modified", "etag"];
const DEBIAN_BINARY = "/usr/lib/chromium/chromium";

/** No browser to take screenshots with (missing, does not start, or died). */
export class ScreenshotsUnavailable extends Error {
  override readonly name = "ScreenshotsUnavailable";
}

/** One page could not be rendered. */
export class ShotFailed extends Error {
  override readonly name = "ShotFailed";
}

export interface Shot {
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
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
    throw new ScreenshotsUnavailable(`no browser at WEBCORPUS_CHROMIUM_PATH=${configured}`);
  }
  if (executable(DEBIAN_BINARY)) return DEBIAN_BINARY;
  for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]) {
    const found = Bun.which(name);
    if (found) return found;
  }
  throw new ScreenshotsUnavailable(
    "no Chromium found: install it (Debian: apt-get install chromium) or set WEBCORPUS_CHROMIUM_PATH",
  );
}

const firstLine = (err: unknown) =>
  (
    String(err instanceof Error ? err.message : err)
      .trim()
      .split("\n")[0] ?? ""
  ).slice(0, 300);

/** `call`'s result, or ScreenshotsUnavailable once `ms` pass: a Playwright call can wait for
 * ever when the browser dies during it. */
async function answered<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ScreenshotsUnavailable(`the browser did not answer in ${ms / 1000} s`)),
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

/** One browser for a run of screenshots. */
export class Camera {
  readonly #browser: Browser;
  readonly #fetch: BrowserFetch;
  readonly #timeoutMs: number;

  private constructor(browser: Browser, fetch: BrowserFetch, timeoutMs: number) {
    this.#browser = browser;
    this.#fetch = fetch;
    this.#timeoutMs = timeoutMs;
  }

  static async open(path: string, fetch: BrowserFetch, timeoutS: number): Promise<Camera> {
    // Chromium's sandbox cannot run as root; everywhere else it stays on.
    const asRoot = process.getuid?.() === 0;
    try {
      // Loaded here, not at start-up: it costs ~250 CPU ms, and most runs take no screenshots.
      const { chromium } = await import("playwright-core");
      const browser = await answered(
        chromium.launch({
          executablePath: path,
          args: asRoot ? [...FLAGS, "--no-sandbox"] : FLAGS,
          chromiumSandbox: !asRoot,
          timeout: 30_000,
        }),
        30_000 + ANSWER_MS,
      );
      return new Camera(browser, fetch, timeoutS * 1000);
    } catch (err) {
      throw new ScreenshotsUnavailable(`${path} did not start: ${firstLine(err)}`);
    }
  }

  async close(): Promise<void> {
    await answered(this.#browser.close(), ANSWER_MS).catch(() => {});
  }

  /** The viewport of `url` once loaded, or as it stands after the timeout. */
  async shoot(url: string): Promise<Shot> {
    if (!this.#browser.isConnected()) throw new ScreenshotsUnavailable("the browser has stopped");
    let context: Awaited<ReturnType<Browser["newContext"]>>;
    try {
      context = await answered(
        this.#browser.newContext({
          viewport: { width: WIDTH, height: HEIGHT },
          serviceWorkers: "block",
          acceptDownloads: false,
        }),
        ANSWER_MS,
      );
    } catch (err) {
      if (err instanceof ScreenshotsUnavailable) throw err;
      throw new ScreenshotsUnavailable(`the browser failed: ${firstLine(err)}`);
    }
    let requests = 0;
    const answer = async (route: Route) => {
      requests++;
      const request = route.request();
      if (!["GET", "HEAD"].includes(request.method()) || requests > MAX_REQUESTS_PER_PAGE) {
        await route.abort("blockedbyclient");
        return;
      }
      const result = await this.#fetch(request.url());
      if (result.status === 0) {
        await route.abort(result.error?.kind === "ssrf" ? "addressunreachable" : "failed");
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of PASS_HEADERS) {
        const value = result.headers[name];
        if (value !== undefined) headers[name] = value;
      }
      await route.fulfill({ status: result.status, headers, body: Buffer.from(result.body) });
    };
    try {
      await answered(context.route("**/*", answer), ANSWER_MS);
      const page = await answered(context.newPage(), ANSWER_MS);
      let status: number | null = null;
      try {
        const response = await answered(
          page.goto(url, { waitUntil: "load", timeout: this.#timeoutMs }),
          this.#timeoutMs + ANSWER_MS,
        );
        status = response?.status() ?? null;
      } catch (err) {
        if (err instanceof ScreenshotsUnavailable) throw err;
        // Slow subresources: keep what has rendered.
        if (!(err instanceof Error && err.name === "TimeoutError"))
          throw new ShotFailed(firstLine(err));
      }
      if (status !== null && status >= 400) throw new ShotFailed(`HTTP ${status}`);
      const png = await answered(
        page.screenshot({ type: "png", animations: "disabled" }),
        this.#timeoutMs,
      );
      return { png, width: WIDTH, height: HEIGHT };
    } catch (err) {
      if (err instanceof ShotFailed || err instanceof ScreenshotsUnavailable) throw err;
      if (!this.#browser.isConnected())
        throw new ScreenshotsUnavailable(`the browser stopped: ${firstLine(err)}`);
      throw new ShotFailed(firstLine(err));
    } finally {
      await answered(context.close(), ANSWER_MS).catch(() => {});
    }
  }
}
