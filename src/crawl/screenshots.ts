/**
 * Page screenshots: Chromium (render/browser.ts) renders pages whose every request the crawler's
 * fetcher answers or refuses, images and fonts included.
 */
import type { Browser } from "playwright-core";
import {
  ANSWER_MS,
  answered,
  type BrowserFetch,
  BrowserUnavailable,
  firstLine,
  launchChromium,
  openContext,
  routeThrough,
} from "./render/browser.ts";

export const WIDTH = 1280;
export const HEIGHT = 800;

/** One page could not be rendered. */
export class ShotFailed extends Error {
  override readonly name = "ShotFailed";
}

export interface Shot {
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
}

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
    return new Camera(await launchChromium(path), fetch, timeoutS * 1000);
  }

  async close(): Promise<void> {
    await answered(this.#browser.close(), ANSWER_MS).catch(() => {});
  }

  /** The viewport of `url` once loaded, or as it stands after the timeout. */
  async shoot(url: string): Promise<Shot> {
    const context = await openContext(this.#browser, {
      viewport: { width: WIDTH, height: HEIGHT },
      serviceWorkers: "block",
      acceptDownloads: false,
    });
    try {
      await routeThrough(context, this.#fetch, { media: true });
      const page = await answered(context.newPage(), ANSWER_MS);
      let status: number | null = null;
      try {
        const response = await answered(
          page.goto(url, { waitUntil: "load", timeout: this.#timeoutMs }),
          this.#timeoutMs + ANSWER_MS,
        );
        status = response?.status() ?? null;
      } catch (err) {
        if (err instanceof BrowserUnavailable) throw err;
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
      if (err instanceof ShotFailed || err instanceof BrowserUnavailable) throw err;
      if (!this.#browser.isConnected())
        throw new BrowserUnavailable(`the browser stopped: ${firstLine(err)}`);
      throw new ShotFailed(firstLine(err));
    } finally {
      await answered(context.close(), ANSWER_MS).catch(() => {});
    }
  }
}
