/**
 * A minimal PDF writer for test fixtures: pages of positioned text in the standard fonts
 * (Helvetica, Helvetica-Bold, Courier), an information dictionary, link annotations. Enough to
 * make documents whose layout a test knows exactly (columns, headings, lists, tables).
 */

export type Font = "regular" | "bold" | "mono";

export interface Text {
  readonly x: number;
  readonly y: number;
  readonly size: number;
  readonly text: string;
  readonly font?: Font;
}

export interface LinkBox {
  readonly rect: readonly [number, number, number, number];
  readonly url: string;
}

export interface PdfPageSpec {
  readonly texts: readonly Text[];
  readonly links?: readonly LinkBox[];
}

export interface PdfSpec {
  readonly pages: readonly PdfPageSpec[];
  readonly info?: Readonly<Record<string, string>>;
  /** The pages' MediaBox; default `[0, 0, 612, 792]` (US Letter). */
  readonly mediaBox?: readonly [number, number, number, number];
  /**
   * A hostile page tree: all pages but the last sit under a node claiming to hold
   * `declaredCount - 1` of them, so the tree adds up to `declaredCount` where a reader checks it
   * (the last page is found at that index).
   */
  readonly declaredCount?: number;
}

const FONTS: Record<Font, string> = { regular: "F1", bold: "F2", mono: "F3" };

/** A literal string in WinAnsiEncoding: octal escapes outside ASCII (• is 0x95 there). */
const pdfString = (s: string) =>
  `(${s.replace(/[\\()]|[^\x20-\x7e]/g, (c) => {
    if (c === "\\" || c === "(" || c === ")") return `\\${c}`;
    const code = c === "•" ? 0x95 : c === "–" ? 0x96 : c.charCodeAt(0);
    return `\\${(code & 0xff).toString(8).padStart(3, "0")}`;
  })})`;

function contentStream(texts: readonly Text[]): string {
  return texts
    .map(
      (t) =>
        `BT /${FONTS[t.font ?? "regular"]} ${t.size} Tf 1 0 0 1 ${t.x} ${t.y} Tm ${pdfString(t.text)} Tj ET`,
    )
    .join("\n");
}

/** The document's bytes: objects, a cross-reference table with true offsets, a trailer. */
export function writePdf(spec: PdfSpec): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add("");
  const pagesId = add("");
  const fonts = add(
    "<< /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> " +
      "/F2 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >> " +
      "/F3 << /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >> >>",
  );
  const kids: number[] = [];
  const lying = spec.declaredCount !== undefined && spec.pages.length > 1 ? add("") : 0;
  for (const [n, page] of spec.pages.entries()) {
    const parent = lying && n < spec.pages.length - 1 ? lying : pagesId;
    const stream = contentStream(page.texts);
    const content = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    const annots = (page.links ?? []).map((l) =>
      add(
        `<< /Type /Annot /Subtype /Link /Rect [${l.rect.join(" ")}] /Border [0 0 0] ` +
          `/A << /S /URI /URI ${pdfString(l.url)} >> >>`,
      ),
    );
    const annotsEntry = annots.length
      ? ` /Annots [${annots.map((a) => `${a} 0 R`).join(" ")}]`
      : "";
    kids.push(
      add(
        `<< /Type /Page /Parent ${parent} 0 R /MediaBox [${(spec.mediaBox ?? [0, 0, 612, 792]).join(" ")}] ` +
          `/Resources << /Font ${fonts} 0 R >> /Contents ${content} 0 R${annotsEntry} >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  const refs = (ids: readonly number[]) => ids.map((k) => `${k} 0 R`).join(" ");
  if (lying) {
    const count = (spec.declaredCount as number) - 1;
    objects[lying - 1] =
      `<< /Type /Pages /Parent ${pagesId} 0 R /Kids [${refs(kids.slice(0, -1))}] /Count ${count} >>`;
    objects[pagesId - 1] =
      `<< /Type /Pages /Kids [${lying} 0 R ${refs(kids.slice(-1))}] /Count ${count + 1} >>`;
  } else {
    objects[pagesId - 1] = `<< /Type /Pages /Kids [${refs(kids)}] /Count ${kids.length} >>`;
  }
  const infoEntries = Object.entries(spec.info ?? {});
  const info = infoEntries.length
    ? add(`<< ${infoEntries.map(([k, v]) => `/${k} ${pdfString(v)}`).join(" ")} >>`)
    : 0;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  const infoRef = info ? ` /Info ${info} 0 R` : "";
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${infoRef} >>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(out, (c) => c.charCodeAt(0));
}
