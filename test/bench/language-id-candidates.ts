/**
 * Adapters of the candidate language identifiers for language-id.ts, loaded from a directory
 * where they were installed (`bun add eld tinyld franc franc-min cld3-asm lande` there); a
 * candidate that is missing is skipped. Each returns ISO 639-1 codes and a confidence in [0, 1].
 */
import type { LanguageDetector } from "../../src/facets/language-id.ts";

/** ISO 639-3 → 639-1 for the languages franc and lande name that have a two-letter code. */
const ISO3: Readonly<Record<string, string>> = {
  eng: "en",
  deu: "de",
  fra: "fr",
  spa: "es",
  ita: "it",
  por: "pt",
  nld: "nl",
  swe: "sv",
  dan: "da",
  nob: "nb",
  nno: "nn",
  nor: "no",
  pol: "pl",
  ces: "cs",
  slk: "sk",
  hrv: "hr",
  srp: "sr",
  bos: "bs",
  slv: "sl",
  ron: "ro",
  tur: "tr",
  rus: "ru",
  ukr: "uk",
  bel: "be",
  bul: "bg",
  ell: "el",
  arb: "ar",
  ara: "ar",
  pes: "fa",
  fas: "fa",
  prs: "fa",
  ind: "id",
  zlm: "ms",
  msa: "ms",
  jpn: "ja",
  kor: "ko",
  cmn: "zh",
  zho: "zh",
  vie: "vi",
  cat: "ca",
  hun: "hu",
  fin: "fi",
  est: "et",
  lvs: "lv",
  lav: "lv",
  lit: "lt",
  heb: "he",
  hin: "hi",
  urd: "ur",
  ben: "bn",
  tha: "th",
  glg: "gl",
  eus: "eu",
  afr: "af",
  sqi: "sq",
  als: "sq",
  isl: "is",
  mkd: "mk",
  tgl: "tl",
  fil: "tl",
  swh: "sw",
  epo: "eo",
  lat: "la",
  gle: "ga",
  cym: "cy",
  uzn: "uz",
  kaz: "kk",
  azj: "az",
  hye: "hy",
  kat: "ka",
  tam: "ta",
  tel: "te",
};
const two = (code: string): string => ISO3[code] ?? code;

type Loader = (dir: string) => Promise<LanguageDetector>;

async function load(dir: string, spec: string): Promise<Record<string, unknown>> {
  return (await import(Bun.resolveSync(spec, dir))) as Record<string, unknown>;
}

interface EldResult {
  language: string;
  getScores(): Record<string, number>;
  isReliable(): boolean;
}

const eldLoader =
  (size: string): Loader =>
  async (dir) => {
    const mod = await load(dir, `eld/${size}`);
    const eld = mod.eld as { detect(t: string): EldResult };
    return {
      detect(text) {
        const r = eld.detect(text);
        if (!r.language) return null;
        const scores = r.getScores();
        const total = Object.values(scores).reduce((a, b) => a + b, 0);
        const share = total ? (scores[r.language] ?? 0) / total : 0;
        return { lang: r.language, prob: r.isReliable() ? Math.max(share, 0.9) : share };
      },
    };
  };

const tinyldLoader =
  (variant: string): Loader =>
  async (dir) => {
    const mod = await load(dir, variant);
    const detectAll = mod.detectAll as (t: string) => { lang: string; accuracy: number }[];
    return {
      detect(text) {
        const r = detectAll(text)[0];
        return r ? { lang: r.lang, prob: r.accuracy } : null;
      },
    };
  };

const francLoader =
  (pkg: string): Loader =>
  async (dir) => {
    const mod = await load(dir, pkg);
    const francAll = mod.francAll as (t: string) => [string, number][];
    return {
      detect(text) {
        const r = francAll(text);
        const [best, second] = r;
        if (!best || best[0] === "und") return null;
        // scores are relative to the best (1.0): the gap to the runner-up is the confidence
        return { lang: two(best[0]), prob: second ? Math.min(1, 1 - second[1] + 0.5) : 1 };
      },
    };
  };

const cld3Loader: Loader = async (dir) => {
  const mod = await load(dir, "cld3-asm");
  const loadModule = mod.loadModule as () => Promise<{
    create(
      min: number,
      max: number,
    ): {
      findLanguage(t: string): { language: string; probability: number; is_reliable: boolean };
    };
  }>;
  const id = (await loadModule()).create(0, 2000);
  return {
    detect(text) {
      const r = id.findLanguage(text);
      if (!r.language || r.language === "und") return null;
      return { lang: r.language.split("-")[0] as string, prob: r.probability };
    },
  };
};

const landeLoader: Loader = async (dir) => {
  const mod = await load(dir, "lande");
  const lande = (mod.default ?? mod.lande) as (t: string) => [string, number][];
  return {
    detect(text) {
      const r = lande(text)[0];
      return r ? { lang: two(r[0]), prob: r[1] } : null;
    },
  };
};

const LOADERS: readonly [string, Loader][] = [
  ["eld large", eldLoader("large")],
  ["eld medium", eldLoader("medium")],
  ["eld extrasmall", eldLoader("extrasmall")],
  ["tinyld", tinyldLoader("tinyld")],
  ["tinyld heavy", tinyldLoader("tinyld/heavy")],
  ["franc (187 languages)", francLoader("franc")],
  ["franc-min (82 languages)", francLoader("franc-min")],
  ["cld3-asm", cld3Loader],
  ["lande", landeLoader],
];

export async function candidates(dir: string): Promise<[string, LanguageDetector][]> {
  const out: [string, LanguageDetector][] = [];
  for (const [name, loader] of LOADERS) {
    try {
      out.push([name, await loader(dir)]);
    } catch (err) {
      console.error(`skipped ${name}: ${(err as Error).message}`);
    }
  }
  return out;
}
