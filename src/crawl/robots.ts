/**
 * robots.txt policy per RFC 9309, on robots-parser (longest match, allow wins a tie, `*` and `$`,
 * groups of one agent merged, Crawl-delay, Sitemap), with the fetch-outcome rules applied:
 * - 2xx: the first 500 KiB are parsed (status `ok`); the fetch reads no more than that
 *   (robots-cache.ts asks for a prefix), and a longer file is cut at its last complete line
 *   within them, never refused as too large (RFC 9309 §2.5);
 * - 4xx except 429: no restrictions (`missing`);
 * - 5xx, 429, no answer: everything disallowed on that origin for now (`unreachable`; the cache
 *   keeps it a short time so the host is asked again);
 * - 3xx left over after the redirects were followed: `missing` (RFC 9309 §2.3.1.2).
 *
 * The text is rewritten before robots-parser reads it, to follow RFC 9309 and Google's parser
 * where the library does not: a `User-agent` value is read up to its first character outside
 * `[A-Za-z_-]` and must equal our product token case-insensitively (else the group is renamed
 * away, so `User-agent: web` never decides for `webcorpus`); a BOM (even a partial one) is
 * skipped (elsewhere it garbles its line); directives without a colon are read; unknown lines are
 * ignored; rule paths get the canonical percent-encoding
 * our URLs have; `…/index.html` also allows its directory (Google).
 */
import robotsParser from "robots-parser";
import type { FetchFailure, FetchResult } from "./fetch-result.ts";
import { canonicalPercent, originOf } from "./urls.ts";

export type RobotsStatus = "ok" | "missing" | "unreachable" | "none yet";

export const MAX_ROBOTS_BYTES = 500 * 1024;
export const MAX_ROBOTS_REDIRECTS = 5;

const OTHER_AGENT = "x-webcorpus-other-agent";
const BASE = "http://robots.invalid";
const TOKEN = /^[A-Za-z_-]+/;
const UA_LINE = /^[ \t]*user[-_ ]?agent(?![A-Za-z0-9_-])\s*:?\s*(.*)$/i;
const RULE_LINE = /^[ \t]*(allow|disallow)(?![A-Za-z0-9_-])\s*:?\s*(.*)$/i;
const OTHER_LINE = /^[ \t]*(crawl-delay|sitemap)(?![A-Za-z0-9_-])\s*:?\s*(.*)$/i;
const INDEX_PAGE = /\/index\.html?$/;

/** The product token matched against robots.txt groups: `webcorpus/0.1 (+…)` → `webcorpus`. */
export function productToken(userAgent: string): string {
  return TOKEN.exec(userAgent.trim())?.[0].toLowerCase() ?? "";
}

function stripBom(bytes: Uint8Array): Uint8Array {
  let n = 0;
  while (n < 3 && bytes[n] === [0xef, 0xbb, 0xbf][n]) n++;
  return n ? bytes.subarray(n) : bytes;
}

const uncomment = (value: string) => (value.split("#", 1)[0] ?? "").trim();

/** The robots.txt text as robots-parser should read it (see the module comment). */
function rewrite(text: string, token: string): string {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const ua = UA_LINE.exec(line);
    if (ua) {
      const value = uncomment(ua[1] ?? "");
      const name = value.startsWith("*") ? "*" : (TOKEN.exec(value)?.[0].toLowerCase() ?? "");
      out.push(`User-agent: ${name && name === token ? name : name === "*" ? "*" : OTHER_AGENT}`);
      continue;
    }
    const rule = RULE_LINE.exec(line);
    if (rule) {
      const directive = rule[1]?.toLowerCase() === "allow" ? "Allow" : "Disallow";
      const path = canonicalPercent(uncomment(rule[2] ?? ""));
      out.push(`${directive}: ${path}`);
      if (INDEX_PAGE.test(path)) out.push(`${directive}: ${path.replace(INDEX_PAGE, "/")}$`);
      continue;
    }
    const other = OTHER_LINE.exec(line);
    // Other lines (unknown directives, garbage such as a BOM mid-file) are ignored, as Google
    // does; robots-parser would trim a U+FEFF away and read the line.
    out.push(other ? `${other[1]}: ${(other[2] ?? "").trim()}` : "");
  }
  return out.join("\n");
}

/**
 * The part of a robots.txt body that is parsed: its first MAX_ROBOTS_BYTES; a body longer than
 * that, or `cut` short by the fetch, ends at its last complete line (a rule is never read half,
 * nor a character split).
 */
export function robotsPrefix(bytes: Uint8Array, cut = false): Uint8Array {
  let out = bytes;
  if (out.byteLength > MAX_ROBOTS_BYTES) {
    out = out.subarray(0, MAX_ROBOTS_BYTES);
    cut = true;
  }
  if (!cut) return out;
  let end = out.byteLength;
  while (end > 0 && out[end - 1] !== 0x0a && out[end - 1] !== 0x0d) end--;
  return out.subarray(0, end);
}

type Parsed = ReturnType<typeof robotsParser>;

export class RobotsPolicy {
  readonly status: RobotsStatus;
  readonly userAgent: string;
  readonly url: string | null;
  readonly httpStatus: number;
  readonly sitemaps: readonly string[];
  /** Why robots.txt got no answer (an address the SSRF guard refused, DNS, …); null otherwise. */
  readonly failure: FetchFailure | null;
  readonly #parser: Parsed | null;

  private constructor(
    status: RobotsStatus,
    userAgent: string,
    url: string | null,
    httpStatus: number,
    sitemaps: readonly string[] = [],
    parser: Parsed | null = null,
    failure: FetchFailure | null = null,
  ) {
    this.status = status;
    this.userAgent = userAgent;
    this.url = url;
    this.httpStatus = httpStatus;
    this.sitemaps = sitemaps;
    this.failure = failure;
    this.#parser = parser;
  }

  /**
   * The policy of a robots.txt body (an answer known to be 2xx); `cut`: the body is the first
   * bytes of a longer one.
   */
  static parse(
    body: Uint8Array | string,
    userAgent: string,
    url: string | null = null,
    httpStatus = 200,
    cut = false,
  ): RobotsPolicy {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    const text = new TextDecoder().decode(stripBom(robotsPrefix(bytes, cut)));
    const parser = robotsParser(`${BASE}/robots.txt`, rewrite(text, productToken(userAgent)));
    const sitemaps: string[] = [];
    for (const loc of parser.getSitemaps()) {
      const absolute = URL.parse(loc.trim(), url ?? undefined)?.href;
      if (absolute && /^https?:/.test(absolute) && !sitemaps.includes(absolute))
        sitemaps.push(absolute);
    }
    return new RobotsPolicy("ok", userAgent, url, httpStatus, sitemaps, parser);
  }

  static allowAll(userAgent = "", url: string | null = null, httpStatus = 0): RobotsPolicy {
    return new RobotsPolicy("missing", userAgent, url, httpStatus);
  }

  static disallowAll(
    userAgent = "",
    url: string | null = null,
    httpStatus = 0,
    failure: FetchFailure | null = null,
  ): RobotsPolicy {
    return new RobotsPolicy("unreachable", userAgent, url, httpStatus, [], null, failure);
  }

  /** Placeholder before robots.txt was fetched: allows nothing. */
  static noneYet(userAgent = ""): RobotsPolicy {
    return new RobotsPolicy("none yet", userAgent, null, 0);
  }

  get token(): string {
    return productToken(this.userAgent) || "*";
  }

  allowed(url: string): boolean {
    if (this.status === "missing") return true;
    if (this.status !== "ok" || !this.#parser) return false;
    const parsed = URL.parse(url);
    if (!parsed) return false;
    if (parsed.pathname === "/robots.txt") return true;
    const path = canonicalPercent(parsed.pathname + parsed.search);
    return this.#parser.isAllowed(BASE + path, this.token) !== false;
  }

  /** Crawl-delay (seconds) of the group that applies to us, uncapped (the pacer caps it). */
  get crawlDelayS(): number | null {
    const delay = this.#parser?.getCrawlDelay(this.token);
    return delay === undefined || !Number.isFinite(delay) || delay < 0 ? null : delay;
  }
}

/** The policy for the final answer of a robots.txt fetch (redirects already followed). */
export function policyFromFetch(result: FetchResult, userAgent: string): RobotsPolicy {
  const { status, url } = result;
  if (result.error !== null || status === 0)
    return RobotsPolicy.disallowAll(userAgent, url, status, result.error);
  if (status >= 200 && status < 300)
    return RobotsPolicy.parse(result.body, userAgent, url, status, result.truncated === true);
  if (status === 429 || status >= 500) return RobotsPolicy.disallowAll(userAgent, url, status);
  if (status >= 300 && status < 500) return RobotsPolicy.allowAll(userAgent, url, status);
  return RobotsPolicy.disallowAll(userAgent, url, status);
}

/** `scheme://host[:port]/robots.txt` for any URL on that origin. */
export function robotsUrl(url: string): string {
  return `${originOf(url)}/robots.txt`;
}
