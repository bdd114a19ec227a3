/** HTML text → a linkedom document (typed as our `DomDocument`). */
import { DOMParser } from "linkedom";
import { type DomDocument, type DomNode, isElement, nonSpaceLength, textOf } from "./dom.ts";

const XML_DECL = /^\s*<\?xml[^>]*\?>/i;
const HTML_TAG = /<\/?html(?:\s[^>]*)?>|<!doctype[^>]*>/gi;
// In HTML (outside SVG and MathML) a browser reads `<![CDATA[` as a bogus comment that ends at
// the next `>`; linkedom's parser reads a CDATA section up to `]]>`, which can swallow the whole
// body of a page that writes a stray `<![CDATA[` (a forum's template did). Cut it as a browser
// does (in a script it only changes the script's text, which is never content).
const STRAY_CDATA = /<!\[CDATA\[[^>]*>/g;

/**
 * linkedom builds `<body>` only from a page that writes `<html>` and `<body>`: content outside
 * them ends up beside the body, not in it. Pages without those tags (fragments, broken pages) are
 * wrapped so that their content is the body's, as a browser would have it.
 */
function wellFormed(html: string): string {
  const head = html.slice(0, 65536);
  if (!/<body[\s>]/i.test(head) && !/<body[\s>]/i.test(html)) {
    return `<html><head></head><body>${html.replace(HTML_TAG, "")}</body></html>`;
  }
  if (!/<html[\s>]/i.test(head)) return `<html>${html}</html>`;
  return html;
}

/**
 * linkedom starts a second `<body>` (or leaves elements beside the body) when a page writes
 * content where a browser would not expect it (a `<body>` tag after content, markup after
 * `</body>`); `doc.body` is then the first, often empty, one. A browser has one body holding all
 * of it: so does the tree after this (later bodies' children and stray elements moved into the
 * first body, in document order). Left alone when the body already holds most of the text (a
 * script after `</body>` on an ordinary page).
 */
function oneBody(doc: DomDocument): void {
  const html = doc.documentElement;
  const body = doc.body;
  if (html === null || body === null || body.parentNode !== html) return;
  const stray: DomNode[] = [];
  let outside = 0;
  for (let c = html.firstChild; c !== null; c = c.nextSibling) {
    if (c === body || (isElement(c) && c.localName === "head")) continue;
    if (!isElement(c) && c.nodeType !== 3) continue;
    stray.push(c);
    outside += nonSpaceLength(textOf(c));
  }
  if (outside === 0 || outside <= nonSpaceLength(textOf(body))) return;
  const anchor = body.firstChild;
  let after = false;
  for (const node of stray) {
    after ||= precedes(body, node);
    if (isElement(node) && node.localName === "body") {
      for (const { name, value } of Array.from(node.attributes))
        if (!body.hasAttribute(name)) body.setAttribute(name, value);
      while (node.firstChild !== null) body.appendChild(node.firstChild);
      node.parentNode?.removeChild(node);
    } else if (after) body.appendChild(node);
    else body.insertBefore(node, anchor);
  }
}

/** Whether `a` comes before its sibling `b`. */
function precedes(a: DomNode, b: DomNode): boolean {
  for (let n = a.nextSibling; n !== null; n = n.nextSibling) if (n === b) return true;
  return false;
}

/** Parse an HTML page; null when there is nothing to parse or the parser gives up. */
export function parseHtml(text: string): DomDocument | null {
  const html = text.replace(XML_DECL, "").replaceAll("\u0000", "").replace(STRAY_CDATA, "");
  if (html.trim() === "") return null;
  try {
    const doc = new DOMParser().parseFromString(
      wellFormed(html),
      "text/html",
    ) as unknown as DomDocument;
    if (!doc.documentElement) return null;
    oneBody(doc);
    return doc;
  } catch {
    return null;
  }
}
