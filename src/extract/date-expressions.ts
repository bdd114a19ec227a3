/**
 * Date expressions in short texts (a meta tag's content, an element's first words), read as
 * htmldate reads them (its `try_date_expr` without the slow external parser, which the
 * reference's fast mode never calls): ISO and compact forms, Y-M-D and D-M-Y with any of `-/.`,
 * Y-M, "October 12, 2017" and "12 octobre 2017" in English, French, German, Indonesian and
 * Turkish. Strings that look like times, prices, phone numbers, URLs or codes are refused.
 */

/** A date as written: its day and its wall-clock time (for choosing the oldest of several). */
export interface FoundDate {
  /** `YYYY-MM-DD`. */
  readonly day: string;
  /** `YYYY-MM-DDTHH:MM:SS`, as written (no time zone conversion). */
  readonly wall: string;
}

/** The plausible range, inclusive: `YYYY-MM-DD` strings compare as dates. */
export interface DateRange {
  readonly earliest: string;
  readonly latest: string;
}

export function dateRange(today: Date): DateRange {
  return { earliest: "1995-01-01", latest: today.toISOString().slice(0, 10) };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** A real calendar date (else null), with its time of day when given. */
export function makeDate(y: number, m: number, d: number, time = "00:00:00"): FoundDate | null {
  if (!(y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1)) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return null;
  const day = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
  return { day, wall: `${day}T${time}` };
}

export function inRange(date: FoundDate | null, range: DateRange): FoundDate | null {
  return date !== null && date.day >= range.earliest && date.day <= range.latest ? date : null;
}

/** The older of two dates by wall-clock time, as written on the page. */
export function older(a: FoundDate | null, b: FoundDate): FoundDate {
  return a === null || b.wall < a.wall ? b : a;
}

/** Two-digit years: 90-99 are 1990s, the rest 2000s. */
export function correctYear(year: number): number {
  return year < 100 ? year + (year >= 90 ? 1900 : 2000) : year;
}

/** Day, month, year as a page writes them; a day above 12 beside a month below swaps them. */
export function dmy(day: number, month: number, year: number): FoundDate | null {
  const y = correctYear(year);
  return month > 12 && day <= 12 ? makeDate(y, day, month) : makeDate(y, month, day);
}

export const YEAR = "(?:199[0-9]|20[0-3][0-9])";
export const MONTH = "[0-1]?[0-9]";
export const DAY = "[0-3]?[0-9]";

const MAX_LENGTH = 52;

// English, French, German, Indonesian and Turkish month names (htmldate's list).
const MONTHS = [
  "jan januar jänner january januari janvier ocak oca",
  "feb februar feber february februari février şubat şub",
  "mar mär märz march maret mart mars",
  "apr april avril nisan nis",
  "may mai mei mayıs",
  "jun juni june juin haziran haz",
  "jul juli july juillet temmuz tem",
  "aug august agustus ağustos ağu aout",
  "sep september septembre eylül eyl",
  "oct oktober october octobre okt ekim eki",
  "nov november kasım kas novembre",
  "dec dez dezember december desember décembre aralık ara",
];

/** Lowercase, the Turkish dotless and dotted i folded to `i`. */
const foldMonth = (word: string) => word.replaceAll("ı", "i").replaceAll("İ", "i").toLowerCase();

const MONTH_NUMBERS = new Map<string, number>(
  MONTHS.flatMap((names, i) => names.split(" ").map((n) => [foldMonth(n), i + 1] as const)),
);

/** The number of a month's name or abbreviation ("March", "mar", "Sept", "octobre"), or null. */
export function monthNumber(word: string): number | null {
  const folded = foldMonth(word);
  return MONTH_NUMBERS.get(folded === "sept" ? "sep" : folded) ?? null;
}

const MONTH_WORD = "(?<!\\p{L})\\p{L}{3,}";
const LONG_TEXT = new RegExp(
  `(?<month>${MONTH_WORD})\\s(?<day>${DAY})(?:st|nd|rd|th)?,? (?<year>${YEAR})|` +
    `(?<day2>${DAY})(?:st|nd|rd|th|\\.)? (?:of )?(?<month2>${MONTH_WORD})[,.]? (?<year2>${YEAR})`,
  "giu",
);

/** The first "Month DD, YYYY" / "DD. Month YYYY" date of a text with a known month name. */
export function longTextDate(text: string): FoundDate | null {
  LONG_TEXT.lastIndex = 0;
  for (let m = LONG_TEXT.exec(text); m !== null; m = LONG_TEXT.exec(text)) {
    const g = m.groups ?? {};
    let word = foldMonth(g.month ?? g.month2 ?? "");
    if (g.month) {
      // A month glued to a preceding word ("SmithMarch"): its longest known suffix.
      word = word.slice(-12);
      for (let i = 0; i < word.length - 2; i++) {
        if (MONTH_NUMBERS.has(word.slice(i))) {
          word = word.slice(i);
          break;
        }
      }
    }
    const month = MONTH_NUMBERS.get(word);
    if (month === undefined) {
      LONG_TEXT.lastIndex = m.index + 1; // matches can overlap
      continue;
    }
    const date = dmy(Number(g.day ?? g.day2), month, Number(g.year ?? g.year2));
    if (date !== null) return date;
  }
  return null;
}

const ISO_LIKE =
  /^(\d{4})-(\d{2})-(\d{2})(?:.(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,]\d{1,6})?)?)?(?:Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)?)?$/;
const YEAR_FIRST = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/;
const COMPACT = /\b(\d{8})\b/;
const YMD = new RegExp(
  `(?:\\D|^)(?:(?<year>${YEAR})[-/.](?<month>${MONTH})[-/.](?<day>${DAY})|` +
    `(?<day2>${DAY})[-/.](?<month2>${MONTH})[-/.](?<year2>\\d{2,4}))(?:\\D|$)`,
);
const YM = new RegExp(
  `(?:\\D|^)(?:(?<year>${YEAR})[-/.](?<month>${MONTH})|(?<month2>${MONTH})[-/.](?<year2>${YEAR}))(?:\\D|$)`,
);

function compact(digits: string): FoundDate | null {
  return makeDate(
    Number(digits.slice(0, 4)),
    Number(digits.slice(4, 6)),
    Number(digits.slice(6, 8)),
  );
}

function clock(h: string | undefined, m: string | undefined, s: string | undefined): string {
  return `${pad(Number(h ?? 0))}:${pad(Number(m ?? 0))}:${pad(Number(s ?? 0))}`;
}

/** A text starting with a year: ISO 8601, YYYYMMDD, or Y/M/D with a time. */
function yearFirst(s: string): FoundDate | null {
  if (/^\d+$/.test(s.slice(4, 8))) return compact(s);
  const iso = ISO_LIKE.exec(s) ?? YEAR_FIRST.exec(s);
  if (iso === null) return null;
  return makeDate(Number(iso[1]), Number(iso[2]), Number(iso[3]), clock(iso[4], iso[5], iso[6]));
}

/** The candidate readings of a text, most trusted first (htmldate's `custom_parse`). */
function* readings(s: string): Generator<FoundDate | null> {
  if (/^\d{4}/.test(s)) yield yearFirst(s);
  const c = COMPACT.exec(s);
  if (c?.[1]) yield compact(c[1]);
  const ymd = YMD.exec(s);
  if (ymd?.groups) {
    const g = ymd.groups;
    yield g.year !== undefined
      ? makeDate(Number(g.year), Number(g.month), Number(g.day))
      : dmy(Number(g.day2), Number(g.month2), Number(g.year2));
  }
  const ym = YM.exec(s);
  if (ym?.groups) {
    const g = ym.groups;
    yield makeDate(Number(g.year ?? g.year2), Number(g.month ?? g.month2), 1);
  }
  yield longTextDate(s);
}

/** Times of day, lone years, prices, codes, phone numbers, postcodes, URLs: not dates. */
const NOT_A_DATE = new RegExp(
  "^\\d{2}:\\d{2}(?: |:|$)|^\\D*\\d{4}\\D*$|[$€¥Ұ£¢₽₱฿#₹]|[A-Z]{3}[^A-Z]|" +
    "(?:^|\\D)(?:\\+\\d{2}|\\d{3}|\\d{5})\\D|ftps?|https?|sftp|" +
    "\\.(?:com|net|org|info|gov|edu|de|fr|io)\\b|IBAN|[A-Z]{2}[0-9]{2}|®",
);

/** Whitespace runs collapsed to one space, ends trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/** The date a short text expresses, when it is a plausible one. */
export function dateExpression(
  text: string | null | undefined,
  range: DateRange,
): FoundDate | null {
  if (!text) return null;
  const s = collapse(text).slice(0, MAX_LENGTH);
  const digits = digitCount(s);
  if (digits < 4 || digits > 18 || NOT_A_DATE.test(s)) return null;
  for (const date of readings(s)) {
    const found = inRange(date, range);
    if (found !== null) return found;
  }
  return null;
}
