/**
 * Bytes → text: a byte-order mark, then the charset of the Content-Type header, then a
 * `<meta charset>` / `http-equiv` declaration in the first 4 KiB, then strict UTF-8, then
 * detection (chardet). Labels go through the WHATWG Encoding Standard (Bun's TextDecoder), so
 * `iso-8859-1` decodes as windows-1252 exactly as browsers do. Never throws: undecodable bytes
 * become U+FFFD.
 */
import { detect } from "chardet";

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.-]+)/i;
const HEADER_CHARSET = /charset\s*=\s*["']?\s*([a-zA-Z0-9_:.-]+)/i;

/** A TextDecoder for `label`, or null when the label is unknown to the Encoding Standard. */
type Label = ConstructorParameters<typeof TextDecoder>[0];

function decoderFor(label: string | null | undefined, fatal = false): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().toLowerCase() as Label, { fatal });
  } catch {
    return null;
  }
}

/** The charset named by a Content-Type header value, when the Encoding Standard knows it. */
export function headerCharset(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const m = HEADER_CHARSET.exec(contentType);
  return decoderFor(m?.[1])?.encoding ?? null;
}

function bomEncoding(data: Uint8Array): [string, number] | null {
  const [a, b, c] = data;
  if (a === 0xef && b === 0xbb && c === 0xbf) return ["utf-8", 3];
  if (a === 0xff && b === 0xfe) return ["utf-16le", 2];
  if (a === 0xfe && b === 0xff) return ["utf-16be", 2];
  return null;
}

function metaCharset(data: Uint8Array): string | null {
  const head = new TextDecoder("windows-1252").decode(data.subarray(0, 4096));
  const m = META_CHARSET.exec(head);
  const encoding = decoderFor(m?.[1])?.encoding ?? null;
  // A page that says utf-16 in a meta tag was read as ASCII-compatible bytes to find it.
  return encoding?.startsWith("utf-16") ? "utf-8" : encoding;
}

/** Decode HTML bytes to text. */
export function decodeHtml(data: Uint8Array, contentType?: string | null): string {
  const bom = bomEncoding(data);
  if (bom) return new TextDecoder(bom[0] as Label).decode(data.subarray(bom[1]));
  const declared = headerCharset(contentType) ?? metaCharset(data);
  if (declared) return (decoderFor(declared) ?? new TextDecoder("utf-8")).decode(data);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    const guessed = decoderFor(detect(data.subarray(0, 65536)));
    return (guessed ?? new TextDecoder("windows-1252")).decode(data);
  }
}
