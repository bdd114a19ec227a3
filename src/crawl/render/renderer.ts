/**
 * Renders pages in Chromium for the crawl: a browser started on the first page that needs it, at
 * most `contexts` pages at once (one fresh context each, closed after it), a time cap per page,
 * no images, media or fonts, every request through the crawl's fetch (render/browser.ts). The
 * browser is replaced every RECYCLE_AFTER pages, which bounds what it accumulates.
 */
import type { Browser } from "playwright-core";
import type { FetchResult } from "../fetch-result.ts";
import {
  ANSWER_MS,
  answered,
  type BrowserFetch,
  BrowserUnavailable,
  firstLine,
  launchChromium,
  openContext,
  ResourceCache,
  routeThrough,
} from "./browser.ts";

/** The page counts as settled once no request has been open and the DOM has not changed for
 * this long (an app renders after `load`, then fetches its content, then renders it). */
const QUIET_MS = 250;
const POLL_MS = 50;
const RECYCLE_AFTER = 200;
const CACHE_BYTES = 32 * 1024 * 1024;

/** One page could not be rendered (the browser is fine). */
export class RenderFailed extends Error {
  override readonly name = "RenderFailed";
}

export interface Refusal {
  readonly url: string;
  readonly reason: string;
}

export interface Rendered {
  /** The DOM once the page's network went quiet (or at the time cap), `<noscript>` removed. */
  readonly html: string;
  /** URLs the page pushed into its history (client-side routes), absolute. */
  readonly pushed: readonly string[];
  /** Requests the crawl's fetch refused or failed. */
  readonly refused: readonly Refusal[];
  readonly requests: number;
  readonly timedOut: boolean;
}

export interface RendererOptions {
  readonly chromium: string;
  readonly fetch: BrowserFetch;
  /** Pages rendered at once. */
  readonly contexts: number;
  readonly timeoutMs: number;
}

/** Wraps history.pushState/replaceState to note every URL the page navigates to itself, and
 * notes when the DOM last changed. */
const INIT = `(() => {
  const seen = [];
  Object.defineProperty(window, "__webcorpusPushed", { value: seen });
  window.__webcorpusMutated = performance.now();
  new MutationObserver(() => { window.__webcorpusMutated = performance.now(); })
    .observe(document, { childList: true, subtree: true, characterData: true });
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name];
    history[name] = function (state, title, url) {
      if (url !== undefined && url !== null) {
        try { seen.push(new URL(String(url), location.href).href); } catch {}
      }
      return original.apply(this, arguments);
    };
  }
})();`;

const DOM_IDLE_MS = "performance.now() - (window.__webcorpusMutated ?? 0)";

const SNAPSHOT = `(() => {
  for (const el of Array.from(document.querySelectorAll("noscript"))) el.remove();
  const doctype = document.doctype ? "<!doctype html>" : "";
  return { html: doctype + document.documentElement.outerHTML, pushed: window.__webcorpusPushed ?? [] };
})()`;

interface Generation {
  readonly browser: Promise<Browser>;
  active: number;
  renders: number;
  retired: boolean;
}

export class Renderer {
  readonly #options: RendererOptions;
  #current: Generation | null = null;
  #active = 0;
  readonly #queue: (() => void)[] = [];
  readonly #cache = new ResourceCache(CACHE_BYTES);
  #closed = false;
  /** Why the browser cannot be had; every later render fails at once with it. */
  unavailable: string | null = null;

  constructor(options: RendererOptions) {
    this.#options = options;
  }

  /** `url` rendered from `page` (its static fetch, served to the browser as is). */
  async render(url: string, page: FetchResult): Promise<Rendered> {
    await this.#slot();
    const generation = this.#generation();
    generation.active++;
    generation.renders++;
    try {
      return await this.#render(await generation.browser, url, page);
    } catch (err) {
      if (err instanceof BrowserUnavailable) this.unavailable ??= err.message;
      throw err;
    } finally {
      generation.active--;
      if (generation.retired && generation.active === 0) void this.#closeBrowser(generation);
      this.#active--;
      this.#queue.shift()?.();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    this.#current = null;
    if (current) await this.#closeBrowser(current);
  }

  async #slot(): Promise<void> {
    if (this.#closed) throw new BrowserUnavailable("the renderer is closed");
    if (this.unavailable !== null) throw new BrowserUnavailable(this.unavailable);
    if (this.#active >= Math.max(1, this.#options.contexts)) {
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#queue.push(resolve);
      await promise;
    }
    this.#active++;
  }

  #generation(): Generation {
    let current = this.#current;
    if (current && current.renders >= RECYCLE_AFTER) {
      current.retired = true;
      if (current.active === 0) void this.#closeBrowser(current);
      current = null;
    }
    if (current === null) {
      const browser = launchChromium(this.#options.chromium);
      browser.catch(() => {}); // awaited by the render that started it
      current = { browser, active: 0, renders: 0, retired: false };
      this.#current = current;
    }
    return current;
  }

  async #closeBrowser(generation: Generation): Promise<void> {
    const browser = await generation.browser.catch(() => null);
    if (browser) await answered(browser.close(), ANSWER_MS).catch(() => {});
  }

  async #render(browser: Browser, url: string, page: FetchResult): Promise<Rendered> {
    const context = await openContext(browser, {
      viewport: { width: 1280, height: 800 },
      serviceWorkers: "block",
      acceptDownloads: false,
    });
    const refused: Refusal[] = [];
    let open = 0;
    let requests = 0;
    let lastActivity = performance.now();
    let preset: FetchResult | undefined = page;
    try {
      await routeThrough(context, this.#options.fetch, {
        media: false,
        cache: this.#cache,
        preset: (u) => {
          if (u !== url || preset === undefined) return undefined;
          const answer = preset;
          preset = undefined;
          return answer;
        },
        onRefused: (u, reason) => refused.push({ url: u, reason }),
        onStart: () => {
          open++;
          requests++;
          lastActivity = performance.now();
        },
        onEnd: () => {
          open--;
          lastActivity = performance.now();
        },
      });
      await answered(context.addInitScript({ content: INIT }), ANSWER_MS);
      const tab = await answered(context.newPage(), ANSWER_MS);
      const deadline = performance.now() + this.#options.timeoutMs;
      let timedOut = false;
      try {
        await answered(
          tab.goto(url, { waitUntil: "load", timeout: this.#options.timeoutMs }),
          this.#options.timeoutMs + ANSWER_MS,
        );
      } catch (err) {
        if (err instanceof BrowserUnavailable) throw err;
        // Slow subresources: keep what has rendered.
        if (!(err instanceof Error && err.name === "TimeoutError"))
          throw new RenderFailed(firstLine(err));
        timedOut = true;
      }
      // Content fetched after `load` (an app's JSON) is in once network and DOM are quiet.
      while (!timedOut) {
        if (open === 0 && performance.now() - lastActivity >= QUIET_MS) {
          const idle = (await answered(tab.evaluate(DOM_IDLE_MS), ANSWER_MS)) as number;
          if (idle >= QUIET_MS && open === 0) break;
        }
        if (performance.now() >= deadline) timedOut = true;
        else await Bun.sleep(POLL_MS);
      }
      const snap = (await answered(tab.evaluate(SNAPSHOT), ANSWER_MS)) as {
        html: string;
        pushed: string[];
      };
      return { html: snap.html, pushed: snap.pushed, refused, requests, timedOut };
    } catch (err) {
      if (err instanceof RenderFailed || err instanceof BrowserUnavailable) throw err;
      if (!browser.isConnected())
        throw new BrowserUnavailable(`the browser stopped: ${firstLine(err)}`);
      throw new RenderFailed(firstLine(err));
    } finally {
      await answered(context.close(), ANSWER_MS).catch(() => {});
    }
  }
}
