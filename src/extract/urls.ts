/**
 * URL resolution for one document. The same hrefs repeat on a page (`page.html#a`,
 * `page.html#b`, …), so results are cached on the href without its fragment.
 */

const MAX_CACHE = 50_000;

export class UrlResolver {
  readonly base: string;
  readonly #baseUrl: URL | null;
  readonly #cache = new Map<string, string>();

  constructor(base: string) {
    this.base = base;
    this.#baseUrl = URL.canParse(base) ? new URL(base) : null;
  }

  /** Absolute URL of `href` without its fragment; "" when it does not resolve. */
  resolve(href: string): string {
    const hash = href.indexOf("#");
    const path = (hash >= 0 ? href.slice(0, hash) : href).trim();
    let url = this.#cache.get(path);
    if (url === undefined) {
      url = "";
      if (this.#baseUrl !== null || URL.canParse(path)) {
        try {
          const u = new URL(path, this.#baseUrl ?? undefined);
          u.hash = "";
          url = u.href;
        } catch {
          url = "";
        }
      }
      if (this.#cache.size >= MAX_CACHE) this.#cache.clear();
      this.#cache.set(path, url);
    }
    return url;
  }

  /** Absolute http(s) URL of `href` without its fragment, or null. */
  httpUrl(href: string): string | null {
    const url = this.resolve(href);
    return url.startsWith("http://") || url.startsWith("https://") ? url : null;
  }

  /** Absolute http(s) URL of `href` with its fragment kept (for markdown links), or null. */
  linkTarget(href: string): string | null {
    const url = this.httpUrl(href);
    if (url === null) return null;
    const hash = href.indexOf("#");
    const fragment = hash >= 0 ? href.slice(hash + 1).trim() : "";
    return fragment ? `${url}#${fragment}` : url;
  }
}
