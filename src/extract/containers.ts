/**
 * Documentation containers: the main element of pages made by docs generators (Sphinx, Read the
 * Docs, MkDocs Material, Docusaurus, Docsy, VitePress, DocBook/Publican), and generic containers
 * (`articleBody`, `<main>`, `role=main`, a lone `<article>`) when they hold code or data tables or
 * the generator is a docs tool. Such pages are rendered from that container as they are: a
 * readability-style scorer would drop code nested in lists and definition lists.
 */
import {
  type DomDocument,
  type DomElement,
  elementsByTag,
  firstClass,
  nonSpaceLength,
  textOf,
  walkElements,
} from "./dom.ts";

/** Container kinds in order of preference; `strong` ones win without further evidence. */
const CONTAINERS = [
  { name: "sphinx", strong: true }, // <div class="body"> with role=main, or in Sphinx's wrapper with an <h1>
  { name: "rst-content", strong: true }, // Read the Docs theme
  { name: "md-content__inner", strong: true }, // MkDocs Material (an <article>)
  { name: "theme-doc-markdown", strong: true }, // Docusaurus
  { name: "td-content", strong: true }, // Docsy
  { name: "vp-doc", strong: true }, // VitePress
  { name: "articleBody", strong: false }, // [itemprop=articleBody]
  { name: "main", strong: false },
  { name: "role-main", strong: false },
  { name: "article", strong: false },
] as const;

const DOCS_GENERATOR =
  /sphinx|docbook|publican|mkdocs|docusaurus|antora|gitbook|vitepress|doxygen|javadoc|rustdoc|pdoc/i;
const DOCBOOK_GENERATOR = /docbook|publican/i;
const DOCBOOK_NAV = new Set(["navheader", "navfooter", "docnav"]);
const DOCBOOK_COMPONENTS = new Set(
  (
    "set book part partintro reference chapter appendix preface article section simplesect sect1 " +
    "sect2 sect3 sect4 sect5 refentry glossary bibliography index setindex colophon dedication " +
    "acknowledgements legalnotice qandaset"
  ).split(" "),
);

/** Sphinx's classic themes put `div.body` in `div.bodywrapper` (in `div.documentwrapper`); a
 * shop's or a blog's `div.body` holding an <h1> is no Sphinx page. */
function inSphinxWrapper(el: DomElement): boolean {
  const cls = el.parentElement?.getAttribute("class");
  return cls != null && /(?:^|\s)(?:bodywrapper|documentwrapper)(?:\s|$)/.test(cls);
}

function hasTag(el: DomElement, tag: string): boolean {
  return el.getElementsByTagName(tag).length > 0;
}

/** The first element of each container kind (null when none), and the number of articles. */
function firstContainers(body: DomElement): [(DomElement | null)[], number] {
  const first: (DomElement | null)[] = CONTAINERS.map(() => null);
  let articles = 0;
  const take = (i: number, el: DomElement) => {
    if (first[i] === null) first[i] = el;
  };
  walkElements(body, (el) => {
    const tag = el.localName;
    if (tag !== "div" && tag !== "main" && tag !== "article" && tag !== "section") return true;
    const clsAttr = el.getAttribute("class");
    if (clsAttr) {
      const cls = clsAttr.split(/\s+/);
      if (tag === "div") {
        if (
          first[0] === null &&
          cls.includes("body") &&
          (el.getAttribute("role") === "main" || (inSphinxWrapper(el) && hasTag(el, "h1")))
        )
          take(0, el);
        if (cls.includes("rst-content")) take(1, el);
        if (cls.includes("td-content")) take(4, el);
        if (cls.includes("vp-doc")) take(5, el);
      } else if (tag === "article" && cls.includes("md-content__inner")) take(2, el);
      if (cls.includes("theme-doc-markdown")) take(3, el);
    }
    if (el.getAttribute("itemprop") === "articleBody") take(6, el);
    if (tag === "main") take(7, el);
    else if (tag === "article") {
      articles++;
      take(9, el);
    }
    if (el.getAttribute("role") === "main") take(8, el);
    return true;
  });
  return [first, articles];
}

export interface Container {
  readonly node: DomElement;
  /** Whether it came from DocBook's layout (its navigation is then chrome, its sidebars not). */
  readonly docbook: boolean;
  /** A generic container taken only for its data table (no code, no docs generator): a product's
   * specifications or a price list as often as a reference page, so its boilerplate is pruned. */
  readonly tableOnly?: boolean;
  /** A documentation generator's own container (by its markup or the page's generator), not a
   * generic one taken for the code it holds. */
  readonly generated?: boolean;
}

/** The documentation container of the page, or null to leave the choice to main-content
 * extraction. */
export function findContainer(doc: DomDocument, generator: string | null): Container | null {
  const body = doc.body;
  if (body === null) return null;
  const [first, articles] = firstContainers(body);
  const docsGen = generator !== null && DOCS_GENERATOR.test(generator);
  let bodyTotal = -1;
  for (let i = 0; i < CONTAINERS.length; i++) {
    const node = first[i];
    if (!node || (node.localName === "article" && articles > 1)) continue;
    const size = nonSpaceLength(textOf(node));
    // A docs generator's own container is the content however short the page (a one-paragraph
    // Sphinx page beside a long sidebar and footer); generic containers must hold a share.
    if (CONTAINERS[i]?.strong) {
      if (size > 0) return { node, docbook: false, generated: true };
      continue;
    }
    if (size < 100) continue;
    if (bodyTotal < 0) bodyTotal = Math.max(nonSpaceLength(textOf(body)), 1);
    if (size < 0.2 * bodyTotal) continue;
    const tables = elementsByTag(node, "table");
    const dataTable = tables.length > 0 && !tables.some((t) => hasTag(t, "table"));
    if (docsGen) return { node, docbook: false, generated: true };
    if (hasTag(node, "pre")) return { node, docbook: false };
    if (dataTable) return { node, docbook: false, tableOnly: true };
  }
  const docbook = docbookContainer(body, generator);
  return docbook === null ? null : { node: docbook, docbook: true, generated: true };
}

function isDocbookNav(el: DomElement): boolean {
  return (el.localName === "div" || el.localName === "ul") && DOCBOOK_NAV.has(firstClass(el));
}

/**
 * DocBook/Publican: the component `<div>` (the largest when there are several) beside the
 * DocBook navigation, else the navigation's parent, else `<body>` when the generator says
 * DocBook. Null when the page is not DocBook.
 */
export function docbookContainer(body: DomElement, generator: string | null): DomElement | null {
  let scope: DomElement | null = null;
  walkElements(body, (el) => {
    if (scope !== null) return false;
    if (isDocbookNav(el)) scope = el.parentElement;
    return scope === null;
  });
  if (scope === null) {
    if (!(generator && DOCBOOK_GENERATOR.test(generator))) return null;
    scope = body;
  }
  const components: DomElement[] = [];
  for (let c = (scope as DomElement).firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.localName === "div" && DOCBOOK_COMPONENTS.has(firstClass(c))) components.push(c);
  }
  if (components.length === 0) return scope;
  let best = components[0] ?? null;
  if (components.length > 1) {
    let bestLen = -1;
    for (const c of components) {
      const len = nonSpaceLength(textOf(c));
      if (len > bestLen) [best, bestLen] = [c, len];
    }
  }
  return best;
}
