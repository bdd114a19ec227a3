/**
 * Turndown rules for tables: data tables become GFM tables (every row, the first as header,
 * colspans padded, pipes escaped, a cell's blocks joined by `<br>`); layout tables (a table in a
 * cell) and one-column tables are rendered as the blocks they hold.
 */
import type TurndownService from "turndown";
import { type DomElement, elementsByTag } from "./dom.ts";

const CELL_END = "\u0001";
const ROW_START = "\u0002";
const ROW_END = "\u0003";
const ROW = new RegExp(`${ROW_START}([^${ROW_END}]*)${ROW_END}`, "g");

function colspan(cell: DomElement): number {
  const n = Number.parseInt(cell.getAttribute("colspan") ?? "1", 10);
  return Number.isFinite(n) ? Math.min(Math.max(n, 1), 50) : 1;
}

function rowsOf(table: DomElement): DomElement[] {
  const rows: DomElement[] = [];
  for (let c = table.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.localName === "tr") rows.push(c);
    else if (c.localName === "thead" || c.localName === "tbody" || c.localName === "tfoot") {
      for (let r = c.firstElementChild; r !== null; r = r.nextElementSibling) {
        if (r.localName === "tr") rows.push(r);
      }
    }
  }
  return rows;
}

function isLayout(table: DomElement): boolean {
  if (elementsByTag(table, "table").length > 0) return true;
  let width = 0;
  for (const row of rowsOf(table)) {
    let w = 0;
    for (let c = row.firstElementChild; c !== null; c = c.nextElementSibling) {
      if (c.localName === "td" || c.localName === "th") w += colspan(c);
    }
    width = Math.max(width, w);
  }
  return width <= 1;
}

/** The table rules of one converter; `layout` caches each table's kind for its cells. */
export function tableRules(service: TurndownService): void {
  const layout = new WeakMap<DomElement, boolean>();
  const tableOf = (node: DomElement): DomElement | null => {
    let n = node.parentElement;
    while (n !== null && n.localName !== "table") n = n.parentElement;
    return n;
  };
  const inDataTable = (node: DomElement): boolean => {
    const table = tableOf(node);
    if (table === null) return false;
    let kind = layout.get(table);
    if (kind === undefined) {
      kind = isLayout(table);
      layout.set(table, kind);
    }
    return !kind;
  };
  const cell = (content: string, node: DomElement): string => {
    const text = content
      .trim()
      .replace(/\n{2,}/g, " <br> ")
      .replace(/\n/g, " ")
      .replaceAll("|", "\\|");
    return text + CELL_END.repeat(colspan(node));
  };
  service.addRule("tableCell", {
    filter: (node) => {
      const el = node as unknown as DomElement;
      return (el.localName === "td" || el.localName === "th") && inDataTable(el);
    },
    replacement: (content, node) => cell(content, node as unknown as DomElement),
  });
  service.addRule("tableRow", {
    filter: (node) => {
      const el = node as unknown as DomElement;
      return el.localName === "tr" && inDataTable(el);
    },
    replacement: (content) => {
      const cells = content.split(CELL_END);
      cells.pop();
      if (!cells.some((c) => c.trim())) return "";
      return `\n${ROW_START}${cells.join(CELL_END)}${ROW_END}\n`;
    },
  });
  service.addRule("tableCaption", { filter: "caption", replacement: () => "" });
  service.addRule("table", {
    filter: (node) => {
      const el = node as unknown as DomElement;
      if (el.localName !== "table") return false;
      let kind = layout.get(el);
      if (kind === undefined) {
        kind = isLayout(el);
        layout.set(el, kind);
      }
      return !kind;
    },
    replacement: (content, node) => {
      const rows = [...content.matchAll(ROW)].map((m) => (m[1] ?? "").split(CELL_END));
      if (rows.length === 0) return "";
      const width = Math.max(...rows.map((r) => r.length));
      const lines: string[] = [];
      rows.forEach((row, i) => {
        const padded = row.concat(Array<string>(width - row.length).fill(""));
        lines.push(`| ${padded.join(" | ")} |`);
        if (i === 0) lines.push(`|${"---|".repeat(width)}`);
      });
      const caption = (node as unknown as DomElement).getElementsByTagName("caption")[0];
      const title = caption ? (caption.textContent ?? "").replace(/\s+/g, " ").trim() : "";
      return `\n\n${title ? `${title}\n\n` : ""}${lines.join("\n")}\n\n`;
    },
  });
}
