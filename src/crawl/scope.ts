/**
 * A crawl's scope (issue 32): which URLs of its registrable domain it may fetch.
 * - `domain` (default): the registrable domain and all its subdomains;
 * - `host`: only the host the crawl starts on (the first start URL's, else the entry origin's;
 *   with or without `www.`);
 * - a URL prefix (`https://docs.python.org/3/`): only URLs that start with it (http or https).
 * Include/exclude globs (Bun.Glob: `*` inside a segment, `**` across segments) are matched
 * against the URL's path, and its path with the query: a URL matching an exclude pattern is out,
 * and with include patterns, one must match. A pattern not starting with `/` matches at any
 * depth (`genindex*` reads `**\/genindex*`). Start URLs are fetched whatever the patterns say
 * (their links are not), as crawlee treats them.
 */
import { inScope, normalizeUrl, urlHost } from "./urls.ts";

const SCHEME = /^https?:/;

/** A host without `www.`: `example.com` and `www.example.com` are one host to a host scope (a
 * site answers on one and redirects the other to it). */
const bare = (host: string) => (host.startsWith("www.") ? host.slice(4) : host);

export const MAX_PATTERNS = 20;
export const MAX_PATTERN_LENGTH = 200;
export const MAX_START_URLS = 20;

/** The scope fields a job keeps in its params (absent on jobs from before issue 32). */
export interface ScopeParams {
  readonly scope?: string;
  readonly include?: string[];
  readonly exclude?: string[];
  readonly start?: string[];
}

/** Why `pattern` is no usable glob, or null. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length === 0) return "is empty";
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters
  if (/[\s\u0000-\u001f\u007f]/.test(pattern)) return "contains whitespace or a control character";
  if (pattern.includes("://")) return "is a URL; patterns match the path and query (/blog/**)";
  let braces = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") inClass = true;
    else if (ch === "{") braces++;
    else if (ch === "}") {
      braces--;
      if (braces < 0) return "has an unmatched }";
    }
  }
  if (inClass) return "has an unclosed [";
  if (braces > 0) return "has an unclosed {";
  if (/\*{3,}/.test(pattern)) return "has *** (use * or **)";
  return null;
}

function compile(pattern: string): Bun.Glob {
  const anchored = pattern.startsWith("/") || pattern.startsWith("**/") ? pattern : `**/${pattern}`;
  return new Bun.Glob(anchored);
}

export type ScopeKind =
  | { readonly kind: "domain" }
  | { readonly kind: "host"; readonly host: string | null }
  | { readonly kind: "prefix"; readonly prefix: string };

/** The scope a `scope` value names, or a message saying why it names none. */
export function parseScope(value: string | undefined, domain: string): ScopeKind | string {
  if (value === undefined || value === "domain") return { kind: "domain" };
  if (value === "host") return { kind: "host", host: null };
  if (!/^https?:\/\//i.test(value))
    return `must be "domain", "host" or a URL prefix such as https://docs.example.com/3/`;
  const prefix = normalizeUrl(value);
  if (prefix === null) return `${JSON.stringify(value)} is not a crawlable http(s) URL`;
  if (prefix.includes("?")) return "a URL prefix takes no query";
  if (!inScope(prefix, domain)) return `${prefix} is not under ${domain}`;
  return { kind: "prefix", prefix };
}

/** A short statement of the scope, as the job and the domain record show it. */
export function describeScope(kind: ScopeKind, domain: string): string {
  if (kind.kind === "domain") return domain;
  if (kind.kind === "host") return kind.host ?? "host";
  return kind.prefix;
}

export class CrawlScope {
  readonly kind: ScopeKind;
  readonly domain: string;
  readonly #include: readonly { pattern: string; glob: Bun.Glob }[];
  readonly #exclude: readonly { pattern: string; glob: Bun.Glob }[];

  constructor(domain: string, params: ScopeParams, host: string | null = null) {
    this.domain = domain;
    const parsed = parseScope(params.scope, domain);
    const kind = typeof parsed === "string" ? ({ kind: "domain" } as const) : parsed;
    this.kind = kind.kind === "host" ? { kind: "host", host: host ?? kind.host } : kind;
    this.#include = (params.include ?? []).map((pattern) => ({ pattern, glob: compile(pattern) }));
    this.#exclude = (params.exclude ?? []).map((pattern) => ({ pattern, glob: compile(pattern) }));
  }

  /** The same scope on `host` (a host scope learns its host when the crawl finds its entry). */
  onHost(host: string): CrawlScope {
    return new CrawlScope(
      this.domain,
      {
        scope: this.kind.kind === "prefix" ? this.kind.prefix : this.kind.kind,
        include: this.#include.map((p) => p.pattern),
        exclude: this.#exclude.map((p) => p.pattern),
      },
      host,
    );
  }

  get restricted(): boolean {
    return this.kind.kind !== "domain" || this.#include.length > 0 || this.#exclude.length > 0;
  }

  /** Why a URL of the domain (normalized) is outside the scope's host or prefix, or null. */
  outside(url: string): string | null {
    const k = this.kind;
    if (k.kind === "host") {
      if (k.host !== null && bare(urlHost(url) ?? "") !== bare(k.host))
        return `outside scope: host ${k.host}`;
    } else if (k.kind === "prefix") {
      // http and https alike: a site answering on one of them is crawled there.
      if (!url.replace(SCHEME, "").startsWith(k.prefix.replace(SCHEME, "")))
        return `outside scope: ${k.prefix}`;
    }
    return null;
  }

  /** Why the patterns refuse a URL (normalized), or null. */
  excluded(url: string): string | null {
    if (this.#include.length === 0 && this.#exclude.length === 0) return null;
    const u = new URL(url);
    const path = u.pathname;
    const full = `${u.pathname}${u.search}`;
    const hit = (glob: Bun.Glob) => glob.match(path) || (full !== path && glob.match(full));
    for (const p of this.#exclude) if (hit(p.glob)) return `excluded by pattern ${p.pattern}`;
    if (this.#include.length > 0 && !this.#include.some((p) => hit(p.glob)))
      return "excluded: matches no include pattern";
    return null;
  }

  /** Why the crawl does not fetch `url` (normalized, in the domain), or null. */
  refusal(url: string, isStart = false): string | null {
    return this.outside(url) ?? (isStart ? null : this.excluded(url));
  }
}

/** What a job covered, as the domain record shows it beside its buckets and estimate. */
export interface ScopeView {
  readonly kind: "domain" | "host" | "prefix";
  /** The domain (with its subdomains), the host, or the URL prefix. */
  readonly covers: string;
  readonly include: string[];
  readonly exclude: string[];
  /** One line: `docs.python.org/3/ excluding **\/genindex*`. */
  readonly label: string;
}

export function scopeView(domain: string, params: ScopeParams, host: string | null): ScopeView {
  const parsed = parseScope(params.scope, domain);
  const kind = typeof parsed === "string" ? ({ kind: "domain" } as const) : parsed;
  const covers =
    kind.kind === "prefix" ? kind.prefix : kind.kind === "host" ? (host ?? domain) : domain;
  const include = [...(params.include ?? [])];
  const exclude = [...(params.exclude ?? [])];
  const parts = [kind.kind === "domain" ? `${domain} and its subdomains` : covers];
  if (include.length > 0) parts.push(`including ${include.join(", ")}`);
  if (exclude.length > 0) parts.push(`excluding ${exclude.join(", ")}`);
  return { kind: kind.kind, covers, include, exclude, label: parts.join(" ") };
}
