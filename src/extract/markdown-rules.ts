/**
 * Turndown rules for what documentation needs intact: fenced code with its language (any `<pre>`,
 * with or without `<code>`: Sphinx and DocBook write bare `<pre>`), inline code, ATX headings,
 * lists with tight markers, definition lists (Sphinx signatures as code), absolute links and
 * images (collected as assets).
 */
import type TurndownService from "turndown";
import { codeLanguage } from "./code-language.ts";
import type { Asset } from "./document.ts";
import type { DomElement } from "./dom.ts";
import type { UrlResolver } from "./urls.ts";

/** What one conversion collects beside the markdown. */
export interface RenderState {
  urls: UrlResolver;
  assets: Asset[];
  seenAssets: Set<string>;
  codeBlocks: number;
  inlineCodeChars: number;
}

const CODE_TAGS = new Set(["code", "kbd", "samp", "tt", "var"]);

/** A rule that reads its node's text itself: our turndown patch then skips converting the node's
 * children (`childContent: false`). */
type OwnTextRule = TurndownService.Rule & { childContent: false };

const el = (node: TurndownService.Node): DomElement => node as unknown as DomElement;

function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** `body` with `pad` before every line but the first; empty lines stay empty. */
export function indent(body: string, pad: string): string {
  return body.replace(/\n(?=[^\n])/g, `\n${pad}`);
}

export function codeFence(code: string, lang: string): string {
  let fence = "```";
  const runs = code.match(/^`{3,}/gm);
  if (runs) fence = "`".repeat(Math.max(...runs.map((r) => r.length)) + 1);
  return `${fence}${lang}\n${code}\n${fence}`;
}

function preBlock(node: DomElement, state: RenderState): string {
  state.codeBlocks++;
  const code = (node.textContent ?? "")
    .replace(/\r\n?/g, "\n")
    .replace(/^\n+|\n+$/g, "")
    .replace(/[ \t]+$/gm, "");
  if (!code.trim()) return "";
  return `\n\n${codeFence(code, codeLanguage(node) ?? "")}\n\n`;
}

function inlineCode(node: DomElement, state: RenderState): string {
  const text = collapse(node.textContent ?? "");
  if (!text) return "";
  state.inlineCodeChars += text.length;
  const tick = text.includes("`") ? "``" : "`";
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${tick}${pad}${text}${pad}${tick}`;
}

function listNumber(li: DomElement, cache: WeakMap<DomElement, number>): number {
  const known = cache.get(li);
  if (known !== undefined) return known;
  const list = li.parentElement;
  if (list === null) return 1;
  const start = Number.parseInt(list.getAttribute("start") ?? "1", 10);
  let n = Number.isFinite(start) ? start : 1;
  for (let c = list.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.localName === "li") cache.set(c, n++);
  }
  return cache.get(li) ?? 1;
}

function image(node: DomElement, state: RenderState): string {
  const src = (node.getAttribute("src") || node.getAttribute("data-src") || "").trim();
  if (!src || src.startsWith("data:")) return "";
  const w = node.getAttribute("width");
  const h = node.getAttribute("height");
  if (w === "0" || w === "1" || h === "0" || h === "1") return "";
  const url = state.urls.httpUrl(src);
  if (url === null) return "";
  const alt = collapse(node.getAttribute("alt") ?? "");
  if (!state.seenAssets.has(url)) {
    state.seenAssets.add(url);
    state.assets.push({ url, kind: "image", alt });
  }
  return `![${alt.replace(/[[\]]/g, "\\$&")}](${url.replace(/[()\s]/g, encodeURIComponent)})`;
}

function link(content: string, node: DomElement, state: RenderState): string {
  const href = (node.getAttribute("href") ?? "").trim();
  const text = collapse(content);
  if (!text || !href || /^(?:javascript|data):/i.test(href)) return content;
  const url = state.urls.linkTarget(href);
  if (url === null) return text;
  return `[${text}](${url.replace(/[()\s]/g, encodeURIComponent)})`;
}

function wrap(content: string, mark: string): string {
  const core = content.trim();
  return core ? `${mark}${core.replace(/\s+/g, " ")}${mark}` : "";
}

/** Add the rules to `service`; `state()` gives the current conversion's state. */
export function markdownRules(service: TurndownService, state: () => RenderState): void {
  const numbers = new WeakMap<DomElement, number>();
  service.addRule("codeBlock", {
    filter: "pre",
    replacement: (_content, node) => preBlock(el(node), state()),
    childContent: false,
  } as OwnTextRule);
  service.addRule("inlineCode", {
    filter: (node) => CODE_TAGS.has(el(node).localName),
    replacement: (_content, node) => inlineCode(el(node), state()),
    childContent: false,
  } as OwnTextRule);
  service.addRule("heading", {
    filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
    replacement: (content, node) => {
      const text = collapse(content);
      return text ? `\n\n${"#".repeat(Number(el(node).localName[1]))} ${text}\n\n` : "";
    },
  });
  service.addRule("listItem", {
    filter: "li",
    replacement: (content, node) => {
      const li = el(node);
      const ordered = li.parentElement?.localName === "ol";
      const marker = ordered ? `${listNumber(li, numbers)}. ` : "- ";
      const body = content.replace(/^\n+/, "").replace(/\n+$/, "");
      if (!body.trim()) return "";
      return `${marker}${indent(body, " ".repeat(marker.length))}${li.nextSibling ? "\n" : ""}`;
    },
  });
  service.addRule("definitionTerm", {
    filter: "dt",
    replacement: (content, node) => {
      const dt = el(node);
      const cls = ` ${dt.getAttribute("class") ?? ""} `;
      if (cls.includes(" sig ")) {
        const sig = collapse(dt.textContent ?? "")
          .replace(/¶$/, "")
          .trim();
        return sig ? `\n\n\`${sig}\`\n\n` : "";
      }
      const text = collapse(content);
      return text ? `\n\n**${text}**\n\n` : "";
    },
  });
  service.addRule("link", {
    filter: (node) => el(node).localName === "a" && el(node).hasAttribute("href"),
    replacement: (content, node) => link(content, el(node), state()),
  });
  service.addRule("image", { filter: "img", replacement: (_c, node) => image(el(node), state()) });
  service.addRule("strong", { filter: ["strong", "b"], replacement: (c) => wrap(c, "**") });
  service.addRule("emphasis", { filter: ["em", "i", "cite"], replacement: (c) => wrap(c, "*") });
  service.addRule("strike", {
    filter: (node) => ["del", "s", "strike"].includes(el(node).localName),
    replacement: (c) => wrap(c, "~~"),
  });
}
