/** BCP 47 language tags as pages store them: `en_us` → `en-US`, `zh-hant-tw` → `zh-Hant-TW`. */

const ALIAS: Readonly<Record<string, string>> = { iw: "he", in: "id", ji: "yi", jw: "jv" };
const TAG = /^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z]{4}))?(?:[-_]([a-zA-Z]{2}|\d{3}))?$/;

/** The tag in its stored form (deprecated codes replaced), or null when it is not one. */
export function normalizeTag(tag: string | null | undefined): string | null {
  if (!tag) return null;
  const m = TAG.exec(tag.trim());
  if (!m?.[1]) return null;
  const lower = m[1].toLowerCase();
  const parts = [ALIAS[lower] ?? lower];
  if (m[2]) parts.push(m[2].charAt(0).toUpperCase() + m[2].slice(1).toLowerCase());
  if (m[3]) parts.push(m[3].toUpperCase());
  return parts.join("-");
}
