/**
 * Page chrome: navigation, header, footer, sidebars, menus, breadcrumbs, pagers, cookie banners.
 * A link inside chrome is a template link; chrome nested in the main content is dropped from it.
 */
import { type DomElement, type DomNode, walkElements } from "./dom.ts";

export const CHROME_TAGS = new Set(["nav", "header", "footer", "aside", "menu"]);
const CHROME_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "menu",
  "menubar",
  "search",
]);
const CHROME_NAME = new RegExp(
  "(?:^|[\\s_-])(?:nav|navbar|navigation|navheader|navfooter|menu|menubar|megamenu|sidebar|" +
    "sphinxsidebar|sphinxsidebarwrapper|side-?bar|breadcrumbs?|footer|header|masthead|" +
    "related|site-?header|site-?footer|topbar|toolbar|pagination|pager|skip-?links?|" +
    "cookie-?banner|social|share|tags?-?cloud)(?:$|[\\s_-])",
  "i",
);

const nameCache = new Map<string, boolean>();

/** Whether a class or id value names chrome (cached: the same values repeat on every page). */
export function isChromeName(value: string): boolean {
  // Every name above has 3 letters or more: the 1-2 letter classes of highlighted code (Pygments'
  // "n", "p", "s2", most of a docs page's elements) are answered without a lookup.
  if (value.length < 3) return false;
  let hit = nameCache.get(value);
  if (hit === undefined) {
    hit = CHROME_NAME.test(value);
    if (nameCache.size > 16_384) nameCache.clear();
    nameCache.set(value, hit);
  }
  return hit;
}

/** A DocBook/Publican `<div class="sidebar">` (TIP/NOTE/SECURITY boxes) with a title: content. */
function isDocbookSidebar(el: DomElement): boolean {
  const cls = el.getAttribute("class") ?? "";
  if (!cls.split(/\s+/).includes("sidebar")) return false;
  for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) {
    const first = (c.getAttribute("class") ?? "").trim().split(/\s+/)[0];
    if (first === "titlepage" || first === "title") return true;
  }
  return false;
}

/** Whether the element itself is page chrome (by tag, ARIA role, class or id). */
export function isChrome(el: DomElement): boolean {
  if (CHROME_TAGS.has(el.localName)) return true;
  const role = el.getAttribute("role");
  if (role && CHROME_ROLES.has(role.toLowerCase())) return true;
  const cls = el.getAttribute("class");
  if (cls && isChromeName(cls)) return !isDocbookSidebar(el);
  const id = el.getAttribute("id");
  if (id && isChromeName(id)) return !isDocbookSidebar(el);
  return false;
}

/** Every chrome element below `root`, outermost first (chrome nested in chrome included). */
export function chromeElements(root: DomNode): DomElement[] {
  const out: DomElement[] = [];
  walkElements(root, (el) => {
    if (isChrome(el)) out.push(el);
    return true;
  });
  return out;
}

/** Whether `el` has a chrome ancestor below `stop` (exclusive), or is chrome itself. */
export function inChrome(el: DomElement, stop: DomNode | null, cache: Map<DomNode, boolean>) {
  const path: DomNode[] = [];
  let result = false;
  for (let n: DomNode | null = el; n !== null && n !== stop; n = n.parentNode) {
    const known = cache.get(n);
    if (known !== undefined) {
      result = known;
      break;
    }
    path.push(n);
    if (n.nodeType === 1 && isChrome(n as DomElement)) {
      result = true;
      break;
    }
  }
  for (const n of path) cache.set(n, result);
  return result;
}
