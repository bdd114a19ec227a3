/**
 * The part of the DOM that extraction reads, as linkedom provides it. The project's tsconfig has
 * no DOM lib (the service is not a browser), so these structural types are the boundary: the
 * parser's document is cast to `DomDocument` once, in `parse.ts`.
 */

export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: DomNode | null;
  readonly firstChild: DomNode | null;
  readonly lastChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
  textContent: string | null;
  removeChild(child: DomNode): DomNode;
  insertBefore(node: DomNode, ref: DomNode | null): DomNode;
  appendChild(node: DomNode): DomNode;
  cloneNode(deep?: boolean): DomNode;
}

export interface DomText extends DomNode {
  data: string;
}

export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly localName: string;
  readonly parentElement: DomElement | null;
  readonly firstElementChild: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  readonly children: ArrayLike<DomElement>;
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  hasAttribute(name: string): boolean;
  getElementsByTagName(name: string): ArrayLike<DomElement>;
  querySelector(selector: string): DomElement | null;
  remove(): void;
  outerHTML: string;
  innerHTML: string;
}

export interface DomDocument extends DomNode {
  readonly documentElement: DomElement | null;
  readonly body: DomElement | null;
  readonly head: DomElement | null;
  createElement(tag: string): DomElement;
  createTextNode(text: string): DomText;
  getElementsByTagName(name: string): ArrayLike<DomElement>;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export function isElement(node: DomNode | null): node is DomElement {
  return node !== null && node.nodeType === ELEMENT_NODE;
}

/** Lowercase tag name (linkedom keeps `localName` lowercase for HTML elements). */
export function tagOf(el: DomElement): string {
  return el.localName;
}

/** Every element below `root` (not `root` itself) in document order; `visit` returning false
 * skips an element's subtree. */
export function walkElements(root: DomNode, visit: (el: DomElement) => boolean | undefined): void {
  let node: DomNode | null = root.firstChild;
  while (node !== null && node !== root) {
    let descend = false;
    if (node.nodeType === ELEMENT_NODE) descend = visit(node as DomElement) !== false;
    if (descend && node.firstChild !== null) {
      node = node.firstChild;
      continue;
    }
    while (node !== null && node !== root && node.nextSibling === null) node = node.parentNode;
    if (node === null || node === root) return;
    node = node.nextSibling;
  }
}

/** The elements below `root` (not `root`) with tag `tag`, in document order. */
export function elementsByTag(root: DomNode, tag: string): DomElement[] {
  const out: DomElement[] = [];
  walkElements(root, (el) => {
    if (el.localName === tag) out.push(el);
    return true;
  });
  return out;
}

/** Text of an element's subtree (as `textContent`, without its per-node string building). */
export function textOf(node: DomNode): string {
  if (node.nodeType === TEXT_NODE) return (node as DomText).data;
  return node.textContent ?? "";
}

/** Whether `ancestor` contains `node` (or is it). */
export function contains(ancestor: DomNode, node: DomNode): boolean {
  for (let n: DomNode | null = node; n !== null; n = n.parentNode) if (n === ancestor) return true;
  return false;
}

/** The first whitespace-separated token of an element's class attribute ("" when none). */
export function firstClass(el: DomElement): string {
  const cls = el.getAttribute("class");
  if (!cls) return "";
  const m = /\S+/.exec(cls);
  return m ? m[0] : "";
}

/** Whether the element's class attribute holds `name` as a token. */
export function hasClass(el: DomElement, name: string): boolean {
  const cls = el.getAttribute("class");
  return cls?.includes(name) === true && cls.split(/\s+/).includes(name);
}

/** Number of non-whitespace characters of a string. */
export function nonSpaceLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
    else if (c !== 32 && c !== 10 && c !== 9 && c !== 13 && c !== 12 && c !== 160) n++;
  }
  return n;
}

/** Number of elements below `root` and the depth of the deepest, stopping past `limit` elements. */
export function treeSize(root: DomNode, limit = Number.POSITIVE_INFINITY): [number, number] {
  let elements = 0;
  let depth = 0;
  let maxDepth = 0;
  let node: DomNode | null = root.firstChild;
  while (node !== null && node !== root && elements <= limit) {
    if (node.nodeType === ELEMENT_NODE) {
      elements++;
      if (node.firstChild !== null) {
        depth++;
        if (depth > maxDepth) maxDepth = depth;
        node = node.firstChild;
        continue;
      }
    }
    while (node !== null && node !== root && node.nextSibling === null) {
      node = node.parentNode;
      depth--;
    }
    if (node === null || node === root) break;
    node = node.nextSibling;
  }
  return [elements, maxDepth];
}
