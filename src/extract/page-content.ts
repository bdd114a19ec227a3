/**
 * The content of a page that is not one article (service and landing pages, listings, product
 * grids, forum threads): the page without its chrome. `<main>` when it holds most of the page's
 * prose, else `<body>`; either way without navigation, header, footer, sidebars, menus and
 * banners (a chrome-named element holding half the text is not chrome, and stays).
 */
import { chromeElements, isChrome } from "./chrome.ts";
import {
  contains,
  type DomDocument,
  type DomElement,
  nonSpaceLength,
  textOf,
  walkElements,
} from "./dom.ts";
import { hiddenTest, isNeverContent } from "./prune.ts";

/** Non-space text length of `root` outside chrome and never-content elements (no changes). */
export function contentLength(root: DomElement): number {
  let n = 0;
  // A hidden wrapper holding most of the text outside the chrome is revealed by a script.
  const hidden = hiddenTest(root, isChrome);
  walkElements(root, (el) => {
    if (isNeverContent(el) || isChrome(el) || hidden(el)) return false;
    for (let c = el.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3) n += nonSpaceLength(textOf(c));
    }
    return true;
  });
  for (let c = root.firstChild; c !== null; c = c.nextSibling) {
    if (c.nodeType === 3) n += nonSpaceLength(textOf(c));
  }
  return n;
}

/** A <footer> or <nav> of the page itself is chrome however much text it holds (a page whose
 * content a script loads has only its footer). */
function alwaysChrome(el: DomElement): boolean {
  return el.localName === "footer" || el.localName === "nav";
}

/** The page's content node, its chrome removed (the tree is changed). */
export function pageContent(doc: DomDocument): DomElement | null {
  const body = doc.body;
  if (body === null) return null;
  const total = contentLength(body);
  const main = body.getElementsByTagName("main")[0];
  const root = main && contentLength(main) >= 0.6 * total ? main : body;
  const all = nonSpaceLength(textOf(root));
  for (const el of chromeElements(root)) {
    if (!contains(root, el)) continue;
    if (alwaysChrome(el) || nonSpaceLength(textOf(el)) <= 0.5 * all) el.remove();
  }
  return root;
}
