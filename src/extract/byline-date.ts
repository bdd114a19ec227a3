/**
 * The date a page shows beside its title: the byline under the main heading ("Jane Doe · March
 * 5, 2025", "Updated on <time>…</time>"), or the line just above it ("News | 12 Dec 2025"). That
 * is the date a reader takes for the page's own, and it is often not the metadata's: a page
 * updated since it was first published shows its update, and a time written in UTC in the
 * metadata can fall on the next day of the page's own calendar.
 *
 * Only short blocks are read (a byline, a date line: not a paragraph of prose, whose dates are
 * what the text is about), and only a few hundred characters around the heading; navigation,
 * scripts and forms are skipped. A `<time>` whose text is not a date ("3 years ago") gives its
 * `datetime` as written.
 */
import {
  type DateRange,
  dateExpression,
  type FoundDate,
  inRange,
  makeDate,
  monthNumber,
} from "./date-expressions.ts";
import { type DomDocument, type DomElement, type DomNode, TEXT_NODE, textOf } from "./dom.ts";

/** Characters of text read after the end of the main heading, and before its start. */
const AFTER = 400;
const BEFORE = 160;
/** A block holding more text than this is prose, not a byline. */
const MAX_BLOCK = 200;

/** Not read: no text a reader sees as the page's own. */
const SKIPPED = new Set(
  (
    "script style noscript template nav svg math iframe object embed video audio canvas select " +
    "option button form textarea"
  ).split(" "),
);
/** Inline elements: a date inside one belongs to the block around it. */
const INLINE = new Set(
  (
    "a abbr b bdi bdo cite code data dfn em font i kbd label mark q s samp small span strong sub " +
    "sup time u var wbr"
  ).split(" "),
);
/** Chrome around a page's heading: a heading inside these is not the page's. */
const CHROME = new Set(["nav", "footer", "aside"]);

interface Segment {
  readonly text: string;
  /** The `<time>` around the text, if any. */
  readonly time: DomElement | null;
  readonly node: DomNode;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

function inChrome(el: DomElement): boolean {
  for (let p = el.parentElement; p !== null; p = p.parentElement) {
    if (CHROME.has(p.localName)) return true;
  }
  return false;
}

/** The page's main heading: its `<h1>` (when it has several, the longest its title names, else
 * the first). */
export function mainHeading(body: DomElement, title: string | null): DomElement | null {
  const headings: DomElement[] = [];
  const all = body.getElementsByTagName("h1");
  for (let i = 0; i < all.length && headings.length < 20; i++) {
    const h = all[i];
    if (h === undefined) continue;
    const text = collapse(textOf(h));
    if (text.length === 0 || text.length > 300 || inChrome(h)) continue;
    headings.push(h);
  }
  if (headings.length <= 1) return headings[0] ?? null;
  const t = collapse(title ?? "").toLowerCase();
  let named: DomElement | null = null;
  let longest = 3;
  for (const h of headings) {
    const text = collapse(textOf(h)).toLowerCase();
    if (text.length > longest && t.includes(text)) {
      named = h;
      longest = text.length;
    }
  }
  return named ?? headings[0] ?? null;
}

/** Text segments of the body in document order, skipped subtrees left out; `mark` is set to
 * the index range of the heading's own segments. */
function segments(body: DomElement, heading: DomElement): [Segment[], number, number] {
  const out: Segment[] = [];
  let start = -1;
  let end = -1;
  const visit = (n: DomNode, time: DomElement | null): void => {
    for (let c = n.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === TEXT_NODE) {
        const text = collapse((c as DomNode & { data: string }).data);
        if (text !== "") out.push({ text, time, node: c });
      } else if (c.nodeType === 1) {
        const el = c as DomElement;
        const tag = el.localName;
        if (SKIPPED.has(tag)) continue;
        if (el === heading) {
          start = out.length;
          visit(el, time);
          end = out.length;
          continue;
        }
        if (tag === "time") {
          const before = out.length;
          visit(el, el);
          // A <time> with no text of its own still gives its datetime.
          if (out.length === before) out.push({ text: "", time: el, node: el });
          continue;
        }
        visit(el, time);
      }
    }
  };
  visit(body, null);
  return [out, start, end];
}

/** The nearest ancestor of a node that is not inline: the line the node belongs to. */
function blockOf(node: DomNode): DomNode {
  let n: DomNode | null = node.parentNode;
  while (n !== null && n.nodeType === 1 && INLINE.has((n as DomElement).localName)) {
    n = n.parentNode;
  }
  return n ?? node;
}

const MONTH_WORD = "\\p{L}{3,10}\\.?";
const ORD = "(?:st|nd|rd|th)?";
const VISIBLE = new RegExp(
  [
    `(?<m1>${MONTH_WORD})\\s+(?<d1>[0-3]?\\d)${ORD},?\\s+(?<y1>(?:19|20)\\d{2})`,
    `(?<d2>[0-3]?\\d)${ORD}\\.?\\s+(?:of\\s+)?(?<m2>${MONTH_WORD}),?\\s+(?<y2>(?:19|20)\\d{2})`,
    `(?<y3>(?:19|20)\\d{2})-(?<mo3>[01]?\\d)-(?<d3>[0-3]?\\d)`,
    `(?<y4>(?:19|20)\\d{2})/(?<mo4>[01]?\\d)/(?<d4>[0-3]?\\d)`,
    `(?<a5>[0-3]?\\d)(?<sep5>[./])(?<b5>[0-3]?\\d)\\k<sep5>(?<y5>(?:19|20)\\d{2})`,
  ]
    .map((p) => `(?<![\\p{L}\\d])${p}(?![\\p{L}\\d])`)
    .join("|"),
  "gu",
);

/** The first full date (day, month and year) written in a text, as shown to a reader:
 * "March 5, 2025", "5th March 2025", "2025-03-05", "2025/03/05", "03/05/2025" (month first with
 * slashes unless `dayFirst`, day first with dots, unless the numbers say otherwise). */
export function visibleDate(text: string, range: DateRange, dayFirst = false): FoundDate | null {
  return visibleDateAt(text, range, dayFirst)?.[0] ?? null;
}

/** `visibleDate` and where in the text it starts. */
function visibleDateAt(
  text: string,
  range: DateRange,
  dayFirst: boolean,
): [FoundDate, number] | null {
  VISIBLE.lastIndex = 0;
  for (let m = VISIBLE.exec(text); m !== null; m = VISIBLE.exec(text)) {
    const g = m.groups ?? {};
    let date: FoundDate | null = null;
    const word = g.m1 ?? g.m2;
    if (word !== undefined) {
      const month = monthNumber(word.replace(/\.$/, ""));
      const day = Number(g.d1 ?? g.d2);
      date = month === null ? null : makeDate(Number(g.y1 ?? g.y2), month, day);
      if (month === null) VISIBLE.lastIndex = m.index + 1;
    } else if (g.y3 !== undefined || g.y4 !== undefined) {
      date = makeDate(Number(g.y3 ?? g.y4), Number(g.mo3 ?? g.mo4), Number(g.d3 ?? g.d4));
    } else if (g.y5 !== undefined) {
      const a = Number(g.a5);
      const b = Number(g.b5);
      // Slashes: month first ("03/05/2025") unless the page's language writes the day first;
      // dots: day first ("05.03.2025"); unless the numbers say otherwise.
      const monthFirst = g.sep5 === "/" && !dayFirst ? a <= 12 : b > 12;
      const [month, day] = monthFirst ? [a, b] : [b, a];
      date = makeDate(Number(g.y5), month, day);
    }
    const found = inRange(date, range);
    if (found !== null) return [found, m.index];
  }
  return null;
}

interface Context {
  readonly range: DateRange;
  readonly dayFirst: boolean;
  /** Text length of the blocks seen. */
  readonly blocks: Map<DomNode, number>;
}

/** Whether a page in this language writes numeric dates day first (English as written in the
 * United States, or unnamed, writes the month first). */
export function writesDayFirst(language: string | null): boolean {
  if (language === null) return false;
  const tag = language.trim().toLowerCase().replace("_", "-");
  return tag !== "" && tag !== "en" && !tag.startsWith("en-us");
}

/** The last word before a date that says what the date is. */
const LABEL_WORDS =
  "updated|modified|revised|reviewed|refreshed|edited|aktualisiert|actualizado|mis à jour|" +
  "published|posted|written|created|released|veröffentlicht|publicado|publié";
const LABEL = new RegExp(
  `(${LABEL_WORDS})(?![\\p{L}])[^\\p{L}]*(?:(?:on|at|am|le|el)(?![\\p{L}])[^\\p{L}]*)?$`,
  "iu",
);
const UPDATE =
  /^(?:updated|modified|revised|reviewed|refreshed|edited|aktualisiert|actualizado|mis à jour)$/i;

/** A date shown beside the page's heading; `updated` when its label says it is an update. */
export interface ShownDate {
  readonly date: FoundDate;
  readonly updated: boolean;
}

/** A segment's date: its text's, else its `<time>`'s datetime (as written); only in a short
 * block. `before`: the text of the segments just before it (its label, if any). */
function segmentDate(seg: Segment, before: string, ctx: Context): ShownDate | null {
  const { range, blocks } = ctx;
  const inText = seg.text === "" ? null : visibleDateAt(seg.text, range, ctx.dayFirst);
  let found: FoundDate | null = inText?.[0] ?? null;
  let lead = inText ? seg.text.slice(0, inText[1]) : seg.text;
  if (found === null && seg.time) {
    found = dateExpression(seg.time.getAttribute("datetime"), range);
    lead = "";
  }
  if (found === null) return null;
  const block = blockOf(seg.time ?? seg.node);
  let length = blocks.get(block);
  if (length === undefined) {
    length = collapse(textOf(block)).length;
    blocks.set(block, length);
  }
  if (length > MAX_BLOCK) return null;
  const label = LABEL.exec(`${before} ${lead}`.slice(-40))?.[1] ?? "";
  return { date: found, updated: UPDATE.test(label) };
}

/** The dates the page shows beside its main heading, nearest first (a date above the heading
 * counts twice its distance: bylines are under titles more often than above). */
export function bylineDates(
  doc: DomDocument,
  title: string | null,
  range: DateRange,
  language: string | null = null,
): ShownDate[] {
  const body = doc.body;
  if (body === null) return [];
  const heading = mainHeading(body, title);
  if (heading === null) return [];
  const [segs, start, end] = segments(body, heading);
  if (start < 0) return [];
  const ctx: Context = { range, dayFirst: writesDayFirst(language), blocks: new Map() };
  const found: [ShownDate, number][] = [];
  const lead = (i: number) => `${segs[i - 2]?.text ?? ""} ${segs[i - 1]?.text ?? ""}`;
  let read = 0;
  for (let i = end; i < segs.length && read < AFTER; i++) {
    const seg = segs[i];
    if (seg === undefined) break;
    const shown = segmentDate(seg, i > end ? lead(i) : "", ctx);
    if (shown) found.push([shown, read]);
    read += seg.text.length + 1;
  }
  read = 0;
  for (let i = start - 1; i >= 0 && read < BEFORE; i--) {
    const seg = segs[i];
    if (seg === undefined) break;
    const shown = segmentDate(seg, lead(i), ctx);
    if (shown) found.push([shown, 2 * read]);
    read += seg.text.length + 1;
  }
  return found.sort((a, b) => a[1] - b[1]).map(([shown]) => shown);
}

/** The date the page shows beside its main heading (an update's only when it shows no other),
 * or null. */
export function bylineDate(
  doc: DomDocument,
  title: string | null,
  range: DateRange,
  language: string | null = null,
): ShownDate | null {
  const shown = bylineDates(doc, title, range, language);
  return shown.find((d) => !d.updated) ?? shown[0] ?? null;
}
