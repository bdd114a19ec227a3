/**
 * Pages whose content a script renders and which serve it to crawlers inside `<noscript>`
 * (Discourse forums: every post of a topic is in `<noscript data-path>`, the body outside it is
 * an empty app shell). `<noscript>` is never content while the page has content of its own; when
 * what is outside it holds less text than what is inside, its content is the page's.
 */
import { type DomDocument, type DomElement, elementsByTag, nonSpaceLength, textOf } from "./dom.ts";
import { contentLength } from "./page-content.ts";

/** Below this much text inside `<noscript>` the page is left as it is (a tracking pixel, a
 * "please enable JavaScript" line). */
const MIN_NOSCRIPT_TEXT = 200;

/** Replace the body's `<noscript>` elements by their children when they hold more text than the
 * rest of the page (outside its chrome). Returns whether it did. */
export function revealNoscriptContent(doc: DomDocument): boolean {
  const body = doc.body;
  if (body === null) return false;
  const blocks: DomElement[] = elementsByTag(body, "noscript");
  if (blocks.length === 0) return false;
  const inside = blocks.reduce((n, el) => n + nonSpaceLength(textOf(el)), 0);
  if (inside < MIN_NOSCRIPT_TEXT || inside <= contentLength(body)) return false;
  for (const el of blocks) {
    const parent = el.parentNode;
    if (parent === null) continue;
    while (el.firstChild !== null) parent.insertBefore(el.firstChild, el);
    el.remove();
  }
  return true;
}
