/** The parts of a page URL the rules read. */

export interface UrlParts {
  readonly path: string;
  readonly host: string;
  readonly query: string;
}

/** Lowercased path and host of a URL (empty when it does not parse). */
export function urlParts(url: string): UrlParts {
  try {
    const u = new URL(url);
    return { path: u.pathname.toLowerCase(), host: u.hostname.toLowerCase(), query: u.search };
  } catch {
    return { path: "", host: "", query: "" };
  }
}
