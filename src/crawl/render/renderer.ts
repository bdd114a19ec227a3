/**
 * Renders pages in Chromium for the crawl: a browser started on the first page that needs it, at
 * most `contexts` pages at once (each in a tab of its own context, kept for the next render), a
 * time cap per page, no images, media or fonts, every request through the crawl's fetch
 * (render/browser.ts). The browser is replaced every RECYCLE_AFTER pages, which bounds what it
 * accumulates; each page's JavaScript heap is capped by a launch flag.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
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
  /** Tabs between two renders, each in a context of its own. */
  readonly idle: Tab[];
  active: number;
  renders: number;
  retired: boolean;
}

/** What the requests of a tab's render count toward. */
interface Work {
  readonly url: string;
  preset: FetchResult | undefined;
  readonly refused: Refusal[];
  open: number;
  requests: number;
  lastActivity: number;
}

/**
 * A context and its one tab, kept from render to render: a page navigated in the tab that
 * rendered the site's last page reuses its renderer process (measured on the React app: 193
 * against 414 CPU ms a page in Chromium with a new context each time, 259 against 834 wall ms).
 */
interface Tab {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The render under way in the tab (its route handler's requests count toward it). */
  readonly current: { work: Work | null };
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
    let tab: Tab | null = null;
    let reusable = false;
    try {
      const browser = await generation.browser;
      tab = generation.idle.pop() ?? (await this.#openTab(browser));
      const rendered = await this.#render(browser, tab, url, page);
      reusable = true;
      return rendered;
    } catch (err) {
      if (err instanceof BrowserUnavailable) this.unavailable ??= err.message;
      throw err;
    } finally {
      if (tab !== null) {
        tab.current.work = null;
        if (reusable && !generation.retired && !this.#closed) generation.idle.push(tab);
        else void answered(tab.context.close(), ANSWER_MS).catch(() => {});
      }
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
      current = { browser, idle: [], active: 0, renders: 0, retired: false };
      this.#current = current;
    }
    return current;
  }

  async #closeBrowser(generation: Generation): Promise<void> {
    const browser = await generation.browser.catch(() => null);
    if (browser) await answered(browser.close(), ANSWER_MS).catch(() => {});
  }

  async #openTab(browser: Browser): Promise<Tab> {
    const context = await openContext(browser, {
      viewport: { width: 1280, height: 800 },
      serviceWorkers: "block",
      acceptDownloads: false,
    });
    try {
      const current: Tab["current"] = { work: null };
      await routeThrough(context, this.#options.fetch, {
        media: false,
        cache: this.#cache,
        preset: (u) => {
          const work = current.work;
          if (work === null || u !== work.url || work.preset === undefined) return undefined;
          const answer = work.preset;
          work.preset = undefined;
          return answer;
        },
        onRefused: (u, reason) => current.work?.refused.push({ url: u, reason }),
        onStart: () => {
          const work = current.work;
          if (work === null) return;
          work.open++;
          work.requests++;
          work.lastActivity = performance.now();
        },
        onEnd: () => {
          const work = current.work;
          if (work === null) return;
          work.open = Math.max(0, work.open - 1);
          work.lastActivity = performance.now();
        },
      });
      await answered(context.addInitScript({ content: INIT }), ANSWER_MS);
      const page = await answered(context.newPage(), ANSWER_MS);
      return { context, page, current };
    } catch (err) {
      await answered(context.close(), ANSWER_MS).catch(() => {});
      throw err;
    }
  }

  async #render(browser: Browser, tab: Tab, url: string, page: FetchResult): Promise<Rendered> {
    const work: Work = {
      url,
      preset: page,
      refused: [],
      open: 0,
      requests: 0,
      lastActivity: performance.now(),
    };
    tab.current.work = work;
    const { page: tabPage } = tab;
    try {
      const deadline = performance.now() + this.#options.timeoutMs;
      let timedOut = false;
      try {
        await answered(
          tabPage.goto(url, { waitUntil: "load", timeout: this.#options.timeoutMs }),
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
        if (work.open === 0 && performance.now() - work.lastActivity >= QUIET_MS) {
          const idle = (await answered(tabPage.evaluate(DOM_IDLE_MS), ANSWER_MS)) as number;
          if (idle >= QUIET_MS && work.open === 0) break;
        }
        if (performance.now() >= deadline) timedOut = true;
        else await Bun.sleep(POLL_MS);
      }
      const snap = (await answered(tabPage.evaluate(SNAPSHOT), ANSWER_MS)) as {
        html: string;
        pushed: string[];
      };
      return {
        html: snap.html,
        pushed: snap.pushed,
        refused: work.refused,
        requests: work.requests,
        timedOut,
      };
    } catch (err) {
      if (err instanceof RenderFailed || err instanceof BrowserUnavailable) throw err;
      if (!browser.isConnected())
        throw new BrowserUnavailable(`the browser stopped: ${firstLine(err)}`);
      throw new RenderFailed(firstLine(err));
    }
  }
}
