/** Whether a response is a PDF (kept apart from the parser: the fetch outcome reads it). */

const PDF_TYPES: ReadonlySet<string> = new Set(["application/pdf", "application/x-pdf"]);
const GENERIC_TYPES: ReadonlySet<string> = new Set([
  "",
  "application/octet-stream",
  "binary/octet-stream",
]);

/** A PDF by its Content-Type, or by its first bytes when the type is missing or generic. */
export function isPdf(contentType: string | undefined, body: Uint8Array): boolean {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (PDF_TYPES.has(type)) return true;
  if (!GENERIC_TYPES.has(type)) return false;
  // "%PDF-" may follow a few bytes of junk (readers look for it in the first kilobyte), but
  // not markup: an HTML page that mentions "%PDF-" early is still HTML.
  const head = new TextDecoder("latin1").decode(body.subarray(0, 1024));
  const at = head.indexOf("%PDF-");
  return at >= 0 && !head.slice(0, at).includes("<");
}
