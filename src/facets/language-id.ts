/**
 * Language identification of a text sample: the interface locale.ts asks, so the detector can
 * be measured and swapped (see language-detector.ts for the one we ship and why).
 */

export interface Detection {
  /** ISO 639-1 code where the language has one (`en`, `de`, `zh`), else ISO 639-3. */
  readonly lang: string;
  /** Confidence in [0, 1]: at 0.9 and above a detection may overrule a declared language. */
  readonly prob: number;
}

export interface LanguageDetector {
  /** The text's language, or null when the detector cannot tell. */
  detect(text: string): Detection | null;
}
