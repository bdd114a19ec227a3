/**
 * URL normalization, page ids, scope and the crawler's verdict on a URL it meets.
 *
 * `normalizeUrl` starts from the WHATWG parser (Bun's native `URL`: IDNA/UTS #46, numeric IPv4
 * forms such as `2130706433` and `0x7f.1`, IPv6 compression, dot segments, default ports,
 * backslashes, tabs and newlines) and then makes the result canonical the way the reference did:
 * - only http/https; user info and the fragment dropped; the host's trailing dot removed;
 * - percent-encoding: escapes of unreserved characters decoded, other escapes upper-cased, every
 *   character outside the RFC 3986 path/query sets encoded (stray `%` as `%25`);
 * - query parameters keep their order; empty parameters and tracking/session parameters
 *   (`utm_*`, `gclid`, `fbclid`, `jsessionid`, `sid`, …) removed, as is a `;jsessionid=` path
 *   parameter; `+` is left as is.
 * Deterministic and idempotent: `normalizeUrl(normalizeUrl(x)) === normalizeUrl(x)`.
 */

const TRACKING_PARAMS = new Set([
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "fbclid",
  "msclkid",
  "yclid",
  "twclid",
  "igshid",
  "mc_cid",
  "mc_eid",
  "_ga",
  "_gl",
  "_hsenc",
  "_hsmi",
  "mkt_tok",
  "jsessionid",
  "phpsessid",
  "aspsessionid",
  "sessionid",
  "session_id",
  "sid",
  "cfid",
  "cftoken",
]);
const TRACKING_PREFIXES = ["utm_", "pk_", "mtm_", "hsa_"];

/** Extensions of resources that are never a page the crawler indexes (PDFs are: extract/pdf/). */
export const NON_PAGE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    "doc docx xls xlsx ppt pptx odt ods odp rtf epub ps eps " +
    "png jpg jpeg gif webp svg ico bmp tif tiff avif heic " +
    "mp3 wav ogg oga flac m4a aac mp4 m4v webm mov avi mkv wmv flv " +
    "zip gz tgz bz2 xz zst 7z rar tar jar war whl egg deb rpm dmg pkg msi exe apk iso img bin " +
    "css js mjs map json woff woff2 ttf otf eot wasm csv tsv parquet"
  ).split(" "),
);

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const PATH_PLAIN = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const QUERY_PLAIN = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*$/;
const HEX2 = /^[0-9A-Fa-f]{2}$/;
const SESSION_PATH_PARAM = /;(?:jsessionid|phpsessid|sid)=[^/]*/gi;
const encoder = new TextEncoder();

/** Strips C0 controls and spaces at both ends, as the WHATWG parser does. */
function trimC0(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

/** Decodes escapes of unreserved characters, upper-cases the rest, encodes what must be. */
function normPercent(text: string, plain: RegExp): string {
  if (plain.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "%") {
      const hex = text.slice(i + 1, i + 3);
      if (HEX2.test(hex)) {
        const decoded = String.fromCharCode(Number.parseInt(hex, 16));
        out += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
        i += 2;
      } else {
        out += "%25";
      }
    } else if (plain.test(ch)) {
      out += ch;
    } else {
      const code = text.codePointAt(i) ?? 0;
      const char = String.fromCodePoint(code);
      if (char.length === 2) i++;
      for (const b of encoder.encode(char))
        out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return out;
}

/**
 * A path-and-query (or a robots.txt rule) with canonical percent-encoding: escapes of
 * unreserved characters decoded, others upper-cased, characters that need it encoded.
 */
export function canonicalPercent(text: string): string {
  return normPercent(text, QUERY_PLAIN);
}

function cleanQuery(query: string): string {
  const kept: string[] = [];
  for (const param of query.split("&")) {
    if (!param) continue;
    const name = normPercent(param.split("=", 1)[0] ?? "", QUERY_PLAIN).toLowerCase();
    if (TRACKING_PARAMS.has(name) || TRACKING_PREFIXES.some((p) => name.startsWith(p))) continue;
    kept.push(normPercent(param, QUERY_PLAIN));
  }
  return kept.join("&");
}

const HTTP_SCHEME = /^https?:/i;
const EMPTY_AUTHORITY = /^https?:[/\\]{3}/i;

function normalizeUncached(raw: string, base: string | undefined): string | null {
  const input = trimC0(raw);
  let url: URL;
  try {
    if (EMPTY_AUTHORITY.test(input)) return null; // `http:///path`: no host (WHATWG would take "path")
    url = base === undefined ? new URL(input) : new URL(input, trimC0(base));
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  let host = url.hostname;
  if (host.endsWith(".")) host = host.replace(/\.+$/, "");
  if (!host || host.startsWith(".") || host.includes("..")) return null;
  const netloc = url.port ? `${host}:${url.port}` : host;
  const path = normPercent(url.pathname.replace(SESSION_PATH_PARAM, ""), PATH_PLAIN);
  const query = cleanQuery(url.search.slice(1));
  return `${url.protocol}//${netloc}${path || "/"}${query ? `?${query}` : ""}`;
}

const CACHE_SIZE = 32_768;
const cache = new Map<string, string | null>();

/**
 * Canonical form of `url` (resolved against `base`), or null when it is not crawlable.
 * Cached: a site's navigation links recur on every page.
 */
export function normalizeUrl(url: string, base?: string): string | null {
  const key = base === undefined ? url : `${base}\u0000${url}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = normalizeUncached(url, base);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/** `pg_` + 16 lowercase hex chars of SHA-256 of the normalized URL. */
export function pageId(normalizedUrl: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(normalizedUrl);
  return `pg_${hasher.digest("hex").slice(0, 16)}`;
}

/** Lower-cased host of an absolute URL (no brackets, no trailing dot), or null. */
export function urlHost(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const host = new URL(url).hostname.replace(/\.+$/, "").toLowerCase();
  return host || null;
}

/** `scheme://host[:port]` of an absolute URL. */
export function originOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

/** True when `url` is http(s) and its host is `rootDomain` or one of its subdomains. */
export function inScope(url: string, rootDomain: string): boolean {
  if (!HTTP_SCHEME.test(url)) return false;
  const host = urlHost(url);
  const root = rootDomain.replace(/\.+$/, "").toLowerCase();
  if (!host || !root) return false;
  return host === root || host.endsWith(`.${root}`);
}

/** The extension of the URL's last path segment when it names a resource that is no page. */
export function nonPageExtension(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const last = new URL(url).pathname.split("/").pop() ?? "";
  const dot = last.lastIndexOf(".");
  if (dot < 0) return null;
  const ext = last.slice(dot + 1).toLowerCase();
  return NON_PAGE_EXTENSIONS.has(ext) ? ext : null;
}

export function looksLikeNonHtml(url: string): boolean {
  return nonPageExtension(url) !== null;
}
