/**
 * Which pages `render: "auto"` renders. Pure: the signals come from a page's static HTML (only
 * when its extracted text is short: a page of 150 words or more is never scanned, so static
 * sites pay one comparison a page), the verdict from them and what the job's earlier pages
 * needed.
 */

export const RENDER_MODES = ["auto", "never", "always"] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/** Pages with at least this many extracted words are taken as they are, unscanned. */
export const SCAN_BELOW_WORDS = 150;
/** Below this many words a page is thin: rendered when scripts outweigh its text and earlier
 * pages of the job gained by rendering. */
export const THIN_WORDS = 60;
/** Below this many words a page is all but empty: rendered when scripts outweigh its text,
 * unless most pages of the site so far were static. */
export const EMPTY_WORDS = 25;
/** What an external script is taken to weigh (its size is unknown without fetching it). */
const EXTERNAL_SCRIPT_BYTES = 30_000;
/** Script weight past this many times the text's (~6 bytes a word) makes a thin page a shell. */
const SCRIPT_TO_TEXT = 20;
/** After this many renders that gained nothing, `auto` stops rendering for the job. */
const FRUITLESS_RENDERS = 5;

export interface PageSignals {
  readonly words: number;
  /** Executable scripts (inline or external; JSON data blocks are not counted). */
  readonly scripts: number;
  /** Inline script bytes plus EXTERNAL_SCRIPT_BYTES per external script. */
  readonly scriptBytes: number;
  /** The mount point of an app left empty (`#root`, `#app`, `#__next`, …), or null. */
  readonly shell: string | null;
}

/** What the job's pages have shown so far (auto mode). */
export interface RenderHistory {
  /** Pages processed statically, and how many of them were thin. */
  pages: number;
  thin: number;
  /** Pages rendered, and how many of them gained text by it. */
  rendered: number;
  gained: number;
}

export type RenderVerdict =
  | { readonly render: true; readonly reason: string }
  | { readonly render: false; readonly reason: string };

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const TYPE = /\btype\s*=\s*["']?([^"'\s>]+)/i;
const SRC = /\bsrc\s*=/i;
const JS_TYPES = new Set(["", "module", "text/javascript", "application/javascript"]);
const SHELL_IDS = "root|app|__next|__nuxt|___gatsby|svelte|q-app|main-app|react-root|vue-app";
/** An element with a framework's mount id holding nothing, a comment, or a short loading line. */
const SHELL = new RegExp(
  `<([a-z][a-z0-9-]*)\\b[^>]*?\\bid\\s*=\\s*["']?(${SHELL_IDS})["'\\s>][^>]*>(?:\\s|<!--[\\s\\S]*?-->)*[^<]{0,60}<\\/\\1\\s*>`,
  "i",
);
const ANGULAR = /<(app-root)\b[^>]*>\s*<\/app-root\s*>/i;

/** The signals of a page's static HTML (`words`: what extraction found in it). */
export function pageSignals(html: string, words: number): PageSignals {
  let scripts = 0;
  let scriptBytes = 0;
  for (const m of html.matchAll(SCRIPT)) {
    const attrs = m[1] ?? "";
    const type = (TYPE.exec(attrs)?.[1] ?? "").toLowerCase();
    if (!JS_TYPES.has(type)) continue;
    scripts++;
    scriptBytes += SRC.test(attrs) ? EXTERNAL_SCRIPT_BYTES : (m[2]?.length ?? 0);
  }
  const shell = SHELL.exec(html);
  const angular = shell ? null : ANGULAR.exec(html);
  return {
    words,
    scripts,
    scriptBytes,
    shell: shell ? `#${shell[2]}` : angular ? "<app-root>" : null,
  };
}

/** Whether `auto` renders a page with these signals, given the job's earlier pages. */
export function renderVerdict(s: PageSignals, history: RenderHistory): RenderVerdict {
  if (s.scripts === 0) return { render: false, reason: "no scripts" };
  if (s.words >= SCAN_BELOW_WORDS) return { render: false, reason: "text enough" };
  if (history.rendered >= FRUITLESS_RENDERS && history.gained === 0)
    return { render: false, reason: `${history.rendered} renders gained nothing` };
  if (s.shell !== null)
    return { render: true, reason: `app shell: empty ${s.shell}, ${s.scripts} scripts` };
  const heavy = s.scriptBytes > SCRIPT_TO_TEXT * 6 * Math.max(1, s.words);
  if (s.words >= THIN_WORDS || !heavy) return { render: false, reason: "text outweighs scripts" };
  const why = `${s.words} words against ${Math.round(s.scriptBytes / 1000)} kB of script`;
  if (history.gained > 0) return { render: true, reason: `${why}; earlier pages needed it` };
  if (s.words >= EMPTY_WORDS) return { render: false, reason: `${why}, and no page needed it yet` };
  // A thin page among static ones (a search page, a redirect stub) is what it seems.
  if (history.pages >= 5 && history.thin * 2 < history.pages)
    return { render: false, reason: `${why}, but most pages of the site are static` };
  return { render: true, reason: why };
}

/** Whether a render found text the static page lacked. */
export function gained(staticWords: number, renderedWords: number): boolean {
  return renderedWords >= staticWords * 1.5 + 20;
}

/** A page the worker hands back for rendering: its static body and signals. */
export interface RenderCandidate {
  readonly signals: PageSignals;
  readonly body: Uint8Array;
}

/** In a crawl worker: the page to consider rendering, or null (the usual case, at no cost). */
export function renderCandidate(
  mode: RenderMode,
  body: Uint8Array,
  words: number,
): RenderCandidate | null {
  if (mode === "never" || (mode === "auto" && words >= SCAN_BELOW_WORDS)) return null;
  const signals = pageSignals(Buffer.from(body).toString("latin1"), words);
  if (mode === "auto" && signals.scripts === 0) return null;
  return { signals, body };
}
