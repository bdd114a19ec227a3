/** HTML text → a linkedom document (typed as our `DomDocument`). */
import { DOMParser } from "linkedom";
import type { DomDocument } from "./dom.ts";

const XML_DECL = /^\s*<\?xml[^>]*\?>/i;

/** Parse an HTML page; null when there is nothing to parse or the parser gives up. */
export function parseHtml(text: string): DomDocument | null {
  const html = text.replace(XML_DECL, "").replaceAll("\u0000", "");
  if (html.trim() === "") return null;
  try {
    const doc = new DOMParser().parseFromString(html, "text/html") as unknown as DomDocument;
    return doc.documentElement ? doc : null;
  } catch {
    return null;
  }
}
