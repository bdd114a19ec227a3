/** The information dictionary's strings as the document's title, author and dates. */

/** A PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`, most parts optional) as `YYYY-MM-DD`, or null. */
export function pdfDate(raw: string | null, now = new Date()): string | null {
  const m = raw ? /^(?:D:)?(\d{4})(\d{2})?(\d{2})?/.exec(raw.trim()) : null;
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2] ?? "01");
  const day = Number(m[3] ?? "01");
  // Dates before PDF existed, or in the future, are a tool's placeholder, not the document's.
  if (year < 1993 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const iso = `${m[1]}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return Date.parse(iso) > now.getTime() + 86_400_000 ? null : iso;
}

// Titles that are a tool's leftovers, not the document's: a file name, "untitled", a converter's prefix.
const PLACEHOLDER =
  /^(?:untitled|title|document\d*|slide \d+|powerpoint presentation|\S+\.(?:docx?|pptx?|xlsx?|tex|dvi|indd|pdf|rtf|odt))$/i;
const CONVERTER_PREFIX = /^(?:Microsoft (?:Word|PowerPoint|Excel) - )/;

export function pdfTitle(raw: string | null): string | null {
  if (!raw) return null;
  const title = raw.replace(CONVERTER_PREFIX, "").replace(/\s+/g, " ").trim();
  return title === "" || PLACEHOLDER.test(title) ? null : title;
}

/** `PDF, 12 pages, by Ada Lovelace.` and the subject, when stated. */
export function pdfDescription(
  pages: number,
  author: string | null,
  subject: string | null,
): string {
  const parts = [`PDF, ${pages} ${pages === 1 ? "page" : "pages"}`];
  if (author) parts.push(`by ${author.replace(/\s+/g, " ")}`);
  const head = `${parts.join(", ")}.`;
  return subject ? `${head} ${subject.replace(/\s+/g, " ")}` : head;
}
