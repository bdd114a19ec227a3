/**
 * Published date (`YYYY-MM-DD`): the page's date metadata (meta tags, JSON-LD), else the first
 * `<time datetime>` with a date, else a `/YYYY/MM/DD/` date in the URL. Never today's date by default.
 */
const ISO_DATE = /(\d{4})-(\d{2})-(\d{2})/;
const URL_DATE = /\/((?:19|20)\d{2})\/(\d{1,2})\/(\d{1,2})\//;

function valid(y: number, m: number, d: number, today: Date): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    return null;
  }
  if (y < 1995 || date.getTime() > today.getTime()) return null;
  return date.toISOString().slice(0, 10);
}

/** The first ISO date in `raw`, when it is a real date between 1995 and `today`. */
export function parseIsoDate(raw: string, today = new Date()): string | null {
  const m = ISO_DATE.exec(raw);
  return m ? valid(Number(m[1]), Number(m[2]), Number(m[3]), today) : null;
}

/** The published date of a page. */
export function publishedDate(
  raw: string | null,
  timeValues: readonly string[],
  url: string,
  today = new Date(),
): string | null {
  for (const value of raw ? [raw, ...timeValues] : timeValues) {
    const found = parseIsoDate(value, today);
    if (found) return found;
  }
  const m = URL_DATE.exec(url);
  return m ? valid(Number(m[1]), Number(m[2]), Number(m[3]), today) : null;
}
