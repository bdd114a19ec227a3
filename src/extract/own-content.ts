/**
 * Our own main-content selection, without rewriting the tree: a semantic article-body container
 * when the page has one (schema.org `articleBody`, an `article-body` / `entry-content` /
 * `post-content` / `story-body`-like class, a lone `<article>`, `<main>`), else the element whose
 * paragraphs carry the most prose (text with few links), credited to parent and grandparent.
 */
import { isChrome } from "./chrome.ts";
import { type DomDocument, type DomElement, nonSpaceLength, textOf, walkElements } from "./dom.ts";
import { isNeverContent } from "./prune.ts";

const BODY_CLASS =
  /^(?:[a-z0-9]+[-_]+)*(?:article|entry|post|story|content|main|blog|news|text|rich)[-_]*(?:body|content|text|copy|main|inner)(?:[-_]+(?:wrap|wrapper|container|inner))?$/i;

function bodyClass(el: DomElement): boolean {
  const cls = el.getAttribute("class");
  if (cls) for (const t of cls.split(/\s+/)) if (t && BODY_CLASS.test(t)) return true;
  const id = el.getAttribute("id");
  return id !== null && BODY_CLASS.test(id);
}

/** Non-space text length of `el` and of the link text inside it. */
function textAndLinks(el: DomElement): [number, number] {
  let links = 0;
  walkElements(el, (c) => {
    if (c.localName !== "a") return true;
    links += nonSpaceLength(textOf(c));
    return false;
  });
  return [nonSpaceLength(textOf(el)), links];
}

function prose(el: DomElement): number {
  const [text, links] = textAndLinks(el);
  return text - links;
}

/** A semantic article-body container holding a good share of the page's prose, or null. */
export function semanticContainer(doc: DomDocument): DomElement | null {
  const body = doc.body;
  if (body === null) return null;
  const found: DomElement[] = [];
  let articles = 0;
  walkElements(body, (el) => {
    if (isNeverContent(el)) return false;
    if (el.localName === "article") articles++;
    if (el.getAttribute("itemprop") === "articleBody" || bodyClass(el)) found.push(el);
    return true;
  });
  const total = Math.max(prose(body), 1);
  for (const el of found) {
    if (isChrome(el)) continue;
    if (prose(el) >= 0.3 * total && nonSpaceLength(textOf(el)) >= 200) return el;
  }
  if (articles === 1) {
    const article = body.getElementsByTagName("article")[0];
    if (article && prose(article) >= 0.3 * total) return article;
  }
  return null;
}

const PARAGRAPHS = new Set(["p", "pre", "blockquote", "h2", "h3", "li", "td"]);

/** The element with the most prose in its paragraphs (each credited to parent and grandparent). */
export function densestContainer(doc: DomDocument): DomElement | null {
  const body = doc.body;
  if (body === null) return null;
  const score = new Map<DomElement, number>();
  walkElements(body, (el) => {
    if (isNeverContent(el) || isChrome(el)) return false;
    if (!PARAGRAPHS.has(el.localName)) return true;
    const text = textOf(el).replace(/\s+/g, " ").trim();
    if (text.length < 25) return false;
    const value = 1 + (text.match(/[,，、]/g)?.length ?? 0) + Math.min(text.length / 100, 3);
    const [chars, links] = textAndLinks(el);
    const weight = Math.max(0, 1 - (2 * links) / Math.max(chars, 1));
    const parent = el.parentElement;
    if (parent) score.set(parent, (score.get(parent) ?? 0) + value * weight);
    const grand = parent?.parentElement;
    if (grand) score.set(grand, (score.get(grand) ?? 0) + (value * weight) / 2);
    return false;
  });
  let best: DomElement | null = null;
  let bestScore = 0;
  for (const [el, s] of score) {
    if (s > bestScore) [best, bestScore] = [el, s];
  }
  return best;
}
