/** Every `<a href>` of the page, absolute, with its position: page template or main content. */
import { inChrome } from "./chrome.ts";
import type { Link } from "./document.ts";
import { contains, type DomDocument, type DomElement, type DomNode, elementsByTag } from "./dom.ts";
import type { UrlResolver } from "./urls.ts";

function collapse(s: string | null | undefined): string {
  return (s ?? "").replace(/\s+/g, " ").trim();
}

function anchorText(a: DomElement): string {
  const text = collapse(a.textContent);
  if (text) return text;
  const img = a.getElementsByTagName("img")[0];
  const alt = img ? collapse(img.getAttribute("alt")) : "";
  return alt || collapse(a.getAttribute("title") ?? a.getAttribute("aria-label"));
}

/** A link before its position is known: what the page says of it, and whether chrome holds it. */
export interface RawLink {
  readonly url: string;
  readonly anchorText: string;
  readonly nofollow: boolean;
  /** Inside navigation, header, footer, sidebar or other chrome (below `main`, when given). */
  readonly inChrome: boolean;
  /** Inside the main content node (false when none was given). */
  readonly inMain: boolean;
}

/** Read every http(s) link of the page; `main`: the content node when it is known. */
export function readLinks(doc: DomDocument, urls: UrlResolver, main: DomNode | null): RawLink[] {
  const out: RawLink[] = [];
  const root = doc.documentElement;
  if (root === null) return out;
  const cache = new Map<DomNode, boolean>();
  for (const a of elementsByTag(root, "a")) {
    const href = a.getAttribute("href");
    if (!href) continue;
    const url = urls.httpUrl(href);
    if (url === null) continue;
    const inMain = main !== null && contains(main, a);
    const rel = a.getAttribute("rel");
    out.push({
      url,
      anchorText: anchorText(a).slice(0, 500),
      nofollow: rel?.toLowerCase().split(/\s+/).includes("nofollow") ?? false,
      inChrome: inChrome(a, inMain ? main : null, cache),
      inMain,
    });
  }
  return out;
}

/**
 * Positions: a link in chrome is template; so is a link outside the main node when it is known,
 * or, when only the main text is known, a link whose anchor text is absent from it.
 */
export function positionLinks(raw: readonly RawLink[], mainText: string | null): Link[] {
  const text = mainText === null ? null : mainText.replace(/\s+/g, " ");
  return raw.map((l) => {
    let template = l.inChrome;
    if (!template && text === null && !l.inMain) template = true;
    if (!template && text !== null && l.anchorText && !text.includes(l.anchorText)) template = true;
    return {
      url: l.url,
      anchorText: l.anchorText,
      position: template ? "template" : "body",
      nofollow: l.nofollow,
    };
  });
}
