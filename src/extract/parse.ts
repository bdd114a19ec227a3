/** HTML text → a linkedom document (typed as our `DomDocument`). */
import { DOMParser } from "linkedom";
import type { DomDocument } from "./dom.ts";

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

/** Parse an HTML page; null when there is nothing to parse or the parser gives up. */
export function parseHtml(text: string): DomDocument | null {
  const html = text.replace(XML_DECL, "").replaceAll("\u0000", "").replace(STRAY_CDATA, "");
  if (html.trim() === "") return null;
  try {
    const doc = new DOMParser().parseFromString(
      wellFormed(html),
      "text/html",
    ) as unknown as DomDocument;
    return doc.documentElement ? doc : null;
  } catch {
    return null;
  }
}
