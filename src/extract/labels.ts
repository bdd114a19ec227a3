/**
 * Labels a page repeats on every card or post: calls to action ("Choose options", "Add to cart",
 * "Read more", "Reply"), badges ("New", "Sale!", "Out of stock"). A short text without a number,
 * standing alone in its element and there three times or more in the content, is the template's,
 * not the content's (product names, titles and prices differ from card to card).
 */
import { type DomElement, type DomNode, isElement, textOf, walkElements } from "./dom.ts";

/** A label has at most this many words. */
const MAX_WORDS = 3;
/** ... and is there this many times or more. */
const MIN_COPIES = 3;
/** Table cells repeat their values by nature ("Yes", "Included"): a table's text is its own. */
const KEEP = new Set(["td", "th", "dt", "dd", "tr", "table", "thead", "tbody", "caption"]);

function labelText(el: DomElement): string | null {
  const text = textOf(el).replace(/\s+/g, " ").trim();
  if (text === "" || text.length > 40 || /\d/.test(text) || text.endsWith(":")) return null;
  const words = text.match(/[\p{L}\p{N}]+/gu);
  if (words === null || words.length > MAX_WORDS) return null;
  return text.toLowerCase();
}

/** Whether `el` stands alone: no text beside it in its parent (a link inside a sentence does not),
 * and at most one other short text beside it (among several it is one value of a list:
 * colours, sizes, tags). Each parent is looked at once (a list of thousands of short items). */
function aloneTest(): (el: DomElement) => boolean {
  const parents = new Map<DomNode, boolean>();
  return (el) => {
    const parent = el.parentNode;
    if (parent === null) return false;
    let alone = parents.get(parent);
    if (alone === undefined) {
      let labels = 0;
      alone = true;
      for (let c = parent.firstChild; c !== null && alone; c = c.nextSibling) {
        if (c.nodeType === 3 && textOf(c).trim() !== "") alone = false;
        else if (isElement(c) && c.firstElementChild === null && labelText(c) !== null)
          alone = ++labels <= 2;
      }
      parents.set(parent, alone);
    }
    return alone;
  };
}

/** Remove the repeated labels from below `node` (not `node` itself). */
export function dropRepeatedLabels(node: DomElement): void {
  const found = new Map<string, DomElement[]>();
  const standsAlone = aloneTest();
  walkElements(node, (el) => {
    if (KEEP.has(el.localName)) return false;
    // A list of short values (colours, sizes) is not one label: its items are looked at.
    const first = el.firstElementChild;
    if (first !== null && first.nextElementSibling !== null) return true;
    const text = labelText(el);
    if (text === null) return true;
    if (!standsAlone(el)) return false;
    const list = found.get(text);
    if (list === undefined) found.set(text, [el]);
    else list.push(el);
    return false;
  });
  for (const list of found.values()) {
    if (list.length < MIN_COPIES) continue;
    for (const el of list) el.remove();
  }
}
