/** HTML → markdown with turndown and our rules (code, tables, lists, links, images). */
import TurndownService from "turndown";
import type { Asset } from "./document.ts";
import type { DomElement } from "./dom.ts";
import { markdownRules, type RenderState } from "./markdown-rules.ts";
import { tableRules } from "./table-rules.ts";
import type { UrlResolver } from "./urls.ts";

export interface Rendered {
  readonly markdown: string;
  readonly assets: Asset[];
  readonly codeBlocks: number;
  readonly inlineCodeChars: number;
}

/** A turndown converter set up once and reused for every page (its rules are stateless; the
 * per-page state lives in `#state` for the length of one synchronous `render`). */
export class MarkdownRenderer {
  readonly #service: TurndownService;
  #state: RenderState | null = null;

  constructor() {
    const options: TurndownService.Options & { cloneInput: boolean } = {
      // Our patch of turndown (patches/): convert the node in place, no deep clone of it.
      cloneInput: false,
      headingStyle: "atx",
      hr: "---",
      bulletListMarker: "-",
      codeBlockStyle: "fenced",
      emDelimiter: "*",
      strongDelimiter: "**",
      br: "",
    };
    this.#service = new TurndownService(options);
    const state = (): RenderState => {
      if (this.#state === null) throw new Error("render state used outside render()");
      return this.#state;
    };
    tableRules(this.#service);
    markdownRules(this.#service, state);
  }

  /** Markdown of `node`'s content. The node's subtree is consumed (turndown collapses its
   * whitespace in place), so pass a node of a document that is not read again. */
  render(node: DomElement, urls: UrlResolver): Rendered {
    const state: RenderState = {
      urls,
      assets: [],
      seenAssets: new Set(),
      codeBlocks: 0,
      inlineCodeChars: 0,
    };
    this.#state = state;
    try {
      const markdown = this.#service.turndown(node as unknown as TurndownService.Node);
      return { markdown: tidy(markdown), ...counts(state) };
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      // Absurdly deep nesting overflows turndown's recursion: fall back to the text.
      const text = (node.textContent ?? "").replace(/\s+/g, " ").trim();
      return { markdown: text, ...counts(state) };
    } finally {
      this.#state = null;
    }
  }
}

function counts(state: RenderState) {
  return {
    assets: state.assets,
    codeBlocks: state.codeBlocks,
    inlineCodeChars: state.inlineCodeChars,
  };
}

/** No trailing spaces (code lines have none already). */
function tidy(md: string): string {
  return md.replace(/[ \t]+$/gm, "");
}
