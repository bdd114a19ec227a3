/**
 * Blocks a page repeats: the same product panel rendered once for phones and once for desktops
 * (one of them hidden by a stylesheet we do not apply), a post quoted in a reply, a trust bar
 * shown twice. The later copy of a block whose text is already in the content is dropped.
 */
import { contains, type DomElement, elementsByTag, textOf, walkElements } from "./dom.ts";

/** Shorter texts repeat by nature (a price, "Add to cart", a table's "Yes"). */
const MIN_REPEAT = 40;

const CONTAINERS = new Set([
  "div",
  "section",
  "article",
  "ul",
  "ol",
  "dl",
  "table",
  "blockquote",
  "figure",
]);

function normalized(el: DomElement): string {
  return textOf(el).replace(/\s+/g, " ").trim();
}

/**
 * Remove the later copies of repeated blocks from below `root` (not `root` itself). `paragraphs`:
 * a paragraph goes too when it is there twice (on a page that is not one article; an article's
 * repeated paragraphs are its own, a recipe's recurring line, an embed's signature). One there
 * more often is the text's own anyway (the terms under each offer), as are repeated list items.
 */
export function dropRepeatedBlocks(root: DomElement, paragraphs: boolean): void {
  const counts = new Map<string, number>();
  if (paragraphs) {
    for (const p of elementsByTag(root, "p")) {
      const text = normalized(p);
      if (text.length >= MIN_REPEAT) counts.set(text, (counts.get(text) ?? 0) + 1);
    }
  }
  const first = new Map<string, DomElement>();
  const doomed: DomElement[] = [];
  walkElements(root, (el) => {
    const tag = el.localName;
    if (!CONTAINERS.has(tag) && tag !== "p") return true;
    const text = normalized(el);
    if (text.length < MIN_REPEAT) return true;
    const seen = first.get(text);
    if (seen === undefined) {
      first.set(text, el);
      return true;
    }
    if (contains(seen, el)) return true; // a wrapper and its only child: one block
    if (tag === "p" && counts.get(text) !== 2) return true;
    doomed.push(el);
    return false;
  });
  for (const el of doomed) el.remove();
}
