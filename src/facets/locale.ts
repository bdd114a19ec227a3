/**
 * locale: the page's BCP 47 tag. What the page declares (html lang, Content-Language, its own
 * hreflang entry, a language segment of the URL path) wins unless the language detected in the
 * text plainly contradicts it; a region stated anywhere completes a region-less declaration of
 * the same language. With no declaration the detected language is used, `und` when there is
 * too little text to tell.
 */
import type { LanguageDetector } from "./language-id.ts";

/** Language codes that name the same language for our purposes. */
const SAME: readonly ReadonlySet<string>[] = [
  new Set(["no", "nb", "nn", "da"]),
  new Set(["hr", "sr", "bs", "sh"]),
  new Set(["id", "ms"]),
  new Set(["zh", "wuu", "yue"]),
  new Set(["ar", "ary", "arz"]),
  new Set(["fa", "prs"]),
  new Set(["tl", "fil"]),
];
const ALIAS: Readonly<Record<string, string>> = { iw: "he", in: "id", ji: "yi", jw: "jv" };
const TAG = /^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{4}))?(?:[-_]([a-zA-Z]{2}|\d{3}))?$/;
const URL_LOCALE = /^([a-z]{2})(?:[-_]([a-z]{2}))?$/i;
const LETTER = /\p{L}/gu;
/** Letters needed before a detection may contradict a declaration. */
export const MIN_CHARS = 200;
/** Confidence needed before a detection may contradict a declaration. */
export const MIN_PROB = 0.9;
/** Characters of text the detector reads. */
export const SAMPLE = 2000;
const WINDOWS = 8;
const WINDOW = 300;
const WINDOW_PROB = 0.7;

/** `en_us` → `en-US`, `zh-hant-tw` → `zh-Hant-TW`; null when it is no language tag. */
export function normalizeTag(tag: string | null | undefined): string | null {
  const m = tag ? TAG.exec(tag.trim()) : null;
  if (!m) return null;
  const lower = (m[1] as string).toLowerCase();
  const parts = [ALIAS[lower] ?? lower];
  if (m[2]) parts.push(m[2][0]?.toUpperCase() + m[2].slice(1).toLowerCase());
  if (m[3]) parts.push(m[3].toUpperCase());
  return parts.join("-");
}

export function sameLanguage(a: string, b: string): boolean {
  const x = (a.split("-")[0] ?? "").toLowerCase();
  const y = (b.split("-")[0] ?? "").toLowerCase();
  return x === y || SAME.some((g) => g.has(x) && g.has(y));
}

function letters(s: string): number {
  return s.match(LETTER)?.length ?? 0;
}

/** The sample the detector reads: the opening, and the middle too for long texts (openings are
 * often menus or boilerplate in another language). */
export function detectionSample(text: string): string {
  if (text.length <= 2 * SAMPLE) return text.slice(0, SAMPLE);
  const mid = Math.floor(text.length / 2);
  return `${text.slice(0, SAMPLE / 2)} ${text.slice(mid, mid + SAMPLE / 2)}`;
}

/** Whether two or more stretches of the text are in `tag`'s language: translated pages often
 * keep untranslated paragraphs, and the sample can then read as the source language, while an
 * untranslated page (only its title translated) has at most one such stretch. */
function partlyIn(text: string, tag: string, detector: LanguageDetector): boolean {
  const n = text.length;
  if (n <= SAMPLE) return false; // the whole text was the sample
  let hits = 0;
  for (let i = 0; i < WINDOWS; i++) {
    const start = Math.floor((i * n) / WINDOWS);
    const window = text.slice(start, start + WINDOW);
    if (letters(window) < WINDOW / 3) continue;
    const d = detector.detect(window);
    if (d && d.prob >= WINDOW_PROB && sameLanguage(tag, d.lang) && ++hits >= 2) return true;
  }
  return false;
}

function urlLocale(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  for (const seg of path.split("/").slice(1, 3)) {
    const m = URL_LOCALE.exec(seg);
    if (m && (m[2] || seg.length === 2)) return normalizeTag(seg);
  }
  return null;
}

function trimSlash(s: string): string {
  return s.replace(/\/+$/, "");
}

export interface LocaleInput {
  readonly declared: string | null;
  readonly text: string;
  readonly url: string;
  readonly contentLanguage?: string | null;
  readonly hreflang?: readonly (readonly [string, string])[];
}

/** The page's BCP 47 tag; every candidate and the detection are named in `why`. */
export function pageLocale(input: LocaleInput, detector: LanguageDetector, why: string[]): string {
  const candidates: [string, string][] = [];
  const add = (source: string, tag: string | null) => {
    if (tag) candidates.push([source, tag]);
  };
  add("html lang", normalizeTag(input.declared));
  add("Content-Language", normalizeTag(input.contentLanguage?.split(",")[0]));
  for (const [value, href] of input.hreflang ?? []) {
    if (trimSlash(href) === trimSlash(input.url)) add("hreflang self", normalizeTag(value));
  }
  add("url path", urlLocale(input.url));

  const text = input.text;
  const counted = letters(text.slice(0, SAMPLE));
  const detected = counted >= 20 ? detector.detect(detectionSample(text)) : null;
  const enough = counted >= MIN_CHARS;
  if (detected) why.push(`detected ${detected.lang} p=${detected.prob.toFixed(2)}`);
  const agreeing: string[] = [];
  const partly = new Map<string, boolean>();
  for (const [source, tag] of candidates) {
    if (!detected || sameLanguage(tag, detected.lang) || !(enough && detected.prob >= MIN_PROB)) {
      why.push(`declared ${tag} (${source})`);
      agreeing.push(tag);
      continue;
    }
    let isPartly = partly.get(tag);
    if (isPartly === undefined) {
      isPartly = partlyIn(text, tag, detector);
      partly.set(tag, isPartly);
    }
    if (isPartly) {
      why.push(`declared ${tag} (${source}): part of the text is ${tag.split("-")[0]}`);
      agreeing.push(tag);
    } else {
      why.push(`ignored ${tag} (${source}): text is ${detected.lang}`);
    }
  }
  const first = agreeing[0];
  if (first !== undefined) {
    if (!first.includes("-")) {
      // The same language stated with a region elsewhere (hreflang, /en-us/ path): keep it.
      const regional = agreeing.slice(1).find((t) => t.split("-")[0] === first && t.includes("-"));
      if (regional) return regional;
    }
    return first;
  }
  if (!detected) {
    why.push("no declaration, too little text: und");
    return "und";
  }
  return detected.lang === "no" ? "nb" : detected.lang;
}
