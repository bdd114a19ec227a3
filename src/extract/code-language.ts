/** The language of a code block, from its own, its `<code>` child's or its ancestors' classes. */
import type { DomElement } from "./dom.ts";

const LANG_CLASS =
  /(?:^|\s)(?:highlight|language|lang|brush:?|sourceCode)-?\s*([A-Za-z0-9_+#.-]+)/g;
const NO_LANG = new Set([
  "default",
  "none",
  "text",
  "plaintext",
  "plain",
  "nohighlight",
  "txt",
  "notranslate",
  "source",
  "sourcecode",
  "code",
  "highlight",
]);
const LANG_MAP: Readonly<Record<string, string>> = {
  python3: "python",
  py: "python",
  py3: "python",
  ipython3: "ipython",
  js: "javascript",
  ts: "typescript",
  sh: "shell",
  psql: "sql",
  postgresql: "sql",
  "c++": "cpp",
  yml: "yaml",
};

function normLanguage(raw: string): string | null {
  const lower = raw.trim().toLowerCase();
  const lang = LANG_MAP[lower] ?? lower;
  return !lang || NO_LANG.has(lang) || lang.length > 20 ? null : lang;
}

function ownLanguage(el: DomElement): string | null {
  for (const attr of ["data-lang", "data-language"]) {
    const v = el.getAttribute(attr);
    if (v) return normLanguage(v);
  }
  const cls = el.getAttribute("class");
  if (!cls) return null;
  for (const m of cls.matchAll(LANG_CLASS)) {
    const lang = normLanguage(m[1] ?? "");
    if (lang) return lang;
  }
  return null;
}

/** Language of a `<pre>`: its attributes, then a `<code>` child's, then up to three ancestors'. */
export function codeLanguage(pre: DomElement): string | null {
  const nodes: DomElement[] = [pre];
  for (let c = pre.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.localName === "code") nodes.push(c);
  }
  let parent = pre.parentElement;
  for (let i = 0; i < 3 && parent !== null; i++, parent = parent.parentElement) nodes.push(parent);
  for (const node of nodes) {
    const lang = ownLanguage(node);
    if (lang) return lang;
    if (node.hasAttribute("data-lang") || node.hasAttribute("data-language")) return null;
  }
  return null;
}
