/**
 * Cleaning of a selected content node before markdown: what is never content (scripts, forms,
 * media without text, hidden elements, permalink markers, screen-reader text, copy buttons) and
 * the page chrome nested in it (navigation, sidebars, footers: unless such an element holds a
 * large share of the text, which makes its name misleading rather than chrome).
 */
import { chromeElements } from "./chrome.ts";
import {
  contains,
  type DomElement,
  elementsByTag,
  nonSpaceLength,
  textOf,
  walkElements,
} from "./dom.ts";

const SKIP_TAGS = new Set(
  (
    "script style noscript template svg canvas iframe object embed button input select " +
    "textarea option head link meta title map area audio video source track dialog nav"
  ).split(" "),
);
const DROP_CLASS =
  /(?:^|\s)(?:headerlink|navheader|navfooter|sphinxsidebar|related|breadcrumbs?|skip-?link|sr-only|visually-?hidden|screen-reader-text|copybutton|edit-?this-?page|share|social|newsletter|cookie\S*|consent\S*|gdpr\S*|onetrust\S*|ot-sdk\S*|didomi\S*|qc-cmp\S*)(?:\s|$)/i;

// Cookie-consent managers (OneTrust, Cookiebot, Didomi, Usercentrics, Quantcast, TrustArc, …).
// An id naming a consent banner after a prefix: "modal_cookie-consent", "site-cookie-banner".
const CONSENT_ID =
  /^(?:onetrust|ot-sdk|cookie|consent|gdpr|didomi|usercentrics|qc-cmp|truste|cybot|CybotCookiebot|sp_message|cc-|cky-|iubenda)|[-_](?:cookies?[-_]?(?:consent|banner|notice|bar|policy|settings|popup|modal|law)|gdpr)(?:$|[-_])/i;

const CONSENT_CLASS =
  /(?:^|\s)(?:cookie\S*|consent\S*|gdpr\S*|onetrust\S*|ot-sdk\S*|didomi\S*|qc-cmp\S*)(?:\s|$)/i;

const classCache = new Map<string, boolean>();

function droppedClass(cls: string): boolean {
  // Every class above has 4 letters or more: short ones (highlighted code's) need no lookup.
  if (cls.length < 4) return false;
  let hit = classCache.get(cls);
  if (hit === undefined) {
    hit = DROP_CLASS.test(cls);
    if (classCache.size > 16_384) classCache.clear();
    classCache.set(cls, hit);
  }
  return hit;
}

/** Whether an element is never content, whatever page it is on. */
export function isNeverContent(el: DomElement): boolean {
  if (SKIP_TAGS.has(el.localName)) return true;
  // React's streaming server rendering sends resolved parts as <div hidden id="S:n"> that its
  // script moves into place: content, not hidden.
  if (el.hasAttribute("hidden") && !/^S:\d+$/.test(el.getAttribute("id") ?? "")) return true;
  const role = el.getAttribute("role");
  if (role === "navigation") return true;
  const cls = el.getAttribute("class");
  if (cls && droppedClass(cls)) return true;
  const id = el.getAttribute("id");
  return id !== null && id !== "" && CONSENT_ID.test(id);
}

/** Remove cookie-consent banners and dialogs from below `node`. Done before Readability, which
 * unwraps a banner's <div> (and its id) when the div holds one paragraph. */
export function dropConsentBanners(node: DomElement): void {
  const doomed: DomElement[] = [];
  walkElements(node, (el) => {
    const id = el.getAttribute("id");
    const cls = el.getAttribute("class");
    if ((id && CONSENT_ID.test(id)) || (cls && CONSENT_CLASS.test(cls))) {
      doomed.push(el);
      return false;
    }
    return true;
  });
  for (const el of doomed) el.remove();
}

/** Remove what is never content from below `node` (not `node` itself). */
export function dropNeverContent(node: DomElement): void {
  const hidden = hiddenTest(node);
  const doomed: DomElement[] = [];
  walkElements(node, (el) => {
    if (!isNeverContent(el) && !hidden(el)) return true;
    doomed.push(el);
    return false;
  });
  for (const el of doomed) el.remove();
}

// A collapsed accordion or an inactive tab: the page's own text, a click away (a product's
// description and specifications), unlike a hidden menu or dialog.
const PANEL_CLASS =
  /(?:^|[\s_-])(?:accordion|collapse|collapsible|tab-?panel|tab-?pane|tab-?content)(?:$|[\s_-])/i;
const PANEL_ROLES = new Set(["tabpanel", "region"]);

function isPanel(el: DomElement): boolean {
  for (let n: DomElement | null = el; n !== null; n = n === el ? el.firstElementChild : null) {
    const role = n.getAttribute("role");
    if (role && PANEL_ROLES.has(role)) return true;
    const cls = n.getAttribute("class");
    if (cls && PANEL_CLASS.test(cls)) return true;
  }
  return false;
}

/** A hidden wrapper a script reveals holds at least this much text (a hidden search stub of a
 * page whose content a script loads is no content). */
const REVEALED_MIN = 200;

/**
 * A test for elements hidden by their style (`display: none`) below `root`: hidden menus and
 * dialogs are not content, but a hidden wrapper holding most of the page's text is
 * one that a script reveals (a consent or age gate, a loader): it stays, as do collapsed
 * accordion panels and inactive tabs. `skip`: elements whose
 * text does not count in that share (the page's chrome, when measuring its content).
 */
export function hiddenTest(
  root: DomElement,
  skip?: (el: DomElement) => boolean,
): (el: DomElement) => boolean {
  let total = -1;
  return (el) => {
    const style = el.getAttribute("style");
    if (!style || !/display\s*:\s*none/i.test(style)) return false;
    if (isPanel(el)) return false;
    if (total < 0) total = readableLength(root, skip);
    const own = readableLength(el, skip);
    return own < REVEALED_MIN || own < 0.5 * total;
  };
}

/** Non-space length of the text of `root` outside scripts, styles and other never-content (and
 * outside what `skip` says). */
function readableLength(root: DomElement, skip?: (el: DomElement) => boolean): number {
  let n = 0;
  const add = (parent: DomElement) => {
    for (let c = parent.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3) n += nonSpaceLength(textOf(c));
    }
  };
  add(root);
  walkElements(root, (el) => {
    if (isNeverContent(el) || skip?.(el)) return false;
    add(el);
    return true;
  });
  return n;
}

/**
 * Remove page chrome nested in `node`: nav, footer, aside, menus and chrome-named elements
 * holding at most a quarter of the node's text (headers, `<main>` and `<article>` stay: inside a
 * content node they are the content's own). `chrome`: the chrome elements of the unchanged page
 * when the caller has them.
 */
export function dropNestedChrome(node: DomElement, chrome?: readonly DomElement[]): void {
  const inside = (chrome ?? chromeElements(node)).filter(
    (el) =>
      el !== node &&
      el.localName !== "header" &&
      el.localName !== "main" &&
      el.localName !== "article" &&
      contains(node, el),
  );
  if (inside.length === 0) return;
  const total = nonSpaceLength(textOf(node));
  for (const el of inside) {
    if (el.parentNode !== null && contains(node, el) && nonSpaceLength(textOf(el)) <= 0.25 * total)
      el.remove();
  }
}

/** Inputs that make a form a sign-in, sign-up, newsletter or search box (a text area: a reply,
 * review or contact form). */
const ACCOUNT_INPUTS = new Set(["password", "email", "search"]);

function isAccountForm(form: DomElement): boolean {
  if (form.getAttribute("role") === "search") return true;
  if (elementsByTag(form, "textarea").length > 0) return true;
  for (const input of elementsByTag(form, "input")) {
    if (ACCOUNT_INPUTS.has((input.getAttribute("type") ?? "").toLowerCase())) return true;
  }
  return false;
}

/** A dialog (a report form, a quick view) or a sign-in, newsletter or search form: the page's
 * machinery, not its content (a product's add-to-cart form, with its options and price, is).
 * One holding most of the text wraps the whole page (ASP.NET WebForms) and stays. */
function isWidget(el: DomElement): boolean {
  const tag = el.localName;
  if (tag === "dialog") return true;
  if (tag === "form") return isAccountForm(el);
  const role = el.getAttribute("role");
  if (role === "dialog" || role === "alertdialog") return true;
  return el.getAttribute("aria-modal") === "true";
}

/** Remove dialogs and sign-in, newsletter, search and reply forms from below `root`. */
export function dropWidgets(root: DomElement): void {
  const all = nonSpaceLength(textOf(root));
  const doomed: DomElement[] = [];
  walkElements(root, (el) => {
    if (!isWidget(el)) return true;
    if (nonSpaceLength(textOf(el)) <= 0.5 * all) {
      doomed.push(el);
      return false;
    }
    return true;
  });
  for (const el of doomed) el.remove();
}
