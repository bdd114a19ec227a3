/**
 * Root domains on the Public Suffix List (tldts ships a snapshot; nothing is fetched).
 *
 * `validateRootDomain` checks the `domain` of a crawl request and the `domain` filters. A
 * subdomain (`docs.python.org`) is normalized to its registrable domain (`python.org`) rather
 * than refused: the registrable domain is the crawl target and its subdomains are in scope. The
 * private section counts, so `foo.github.io` is a registrable domain of its own.
 */
import { domainToASCII } from "node:url";
import { parse } from "tldts";

/** Special-use and private-use names that never reach a public site (RFC 6761 and friends). */
export const SPECIAL_USE_SUFFIXES: ReadonlySet<string> = new Set([
  "localhost",
  "local",
  "test",
  "example",
  "invalid",
  "onion",
  "alt",
  "internal",
  "intranet",
  "lan",
  "home",
  "corp",
  "private",
  "localdomain",
  "home.arpa",
  "arpa",
]);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const FORBIDDEN: readonly (readonly [string, string])[] = [
  ["/", "a path"],
  ["?", "a query"],
  ["#", "a fragment"],
  ["@", "user info"],
  ["\\", "a backslash"],
];

/** A domain that cannot be crawled; the message names the value and what is wrong. */
export class DomainError extends Error {
  override readonly name = "DomainError";
}

/** WHATWG URL rule: a host whose last label is a number (decimal or 0x hex) is IPv4. */
function looksLikeIp(host: string): boolean {
  if (host.startsWith("[") || host.includes(":")) return true;
  const last = host.replace(/\.$/, "").split(".").pop() ?? "";
  return /^\d+$/.test(last) || /^0x[0-9a-f]*$/.test(last);
}

function specialUse(host: string): string | null {
  const labels = host.split(".");
  for (let i = 0; i < labels.length; i++) {
    const suffix = labels.slice(i).join(".");
    if (SPECIAL_USE_SUFFIXES.has(suffix)) return suffix;
  }
  return null;
}

/** Lower-case, IDNA (UTS #46) and LDH labels; throws DomainError. */
function toAscii(value: string): string {
  const lowered = value.trim().toLowerCase().replace(/\.$/, "");
  if (!lowered) throw new DomainError("domain is empty");
  const host = domainToASCII(lowered).replace(/\.$/, "");
  if (!host) throw new DomainError(`domain ${JSON.stringify(value)} is not a valid host name`);
  if (host.length > 253) throw new DomainError("domain is longer than 253 characters");
  for (const label of host.split(".")) {
    if (!LABEL.test(label)) {
      throw new DomainError(
        `domain ${JSON.stringify(value)} has an invalid label ${JSON.stringify(label)}`,
      );
    }
  }
  return host;
}

export interface DomainOptions {
  /** Accept names under special-use or unknown suffixes (`.test`, `.internal`): tests, intranets. */
  readonly allowPrivateSuffixes?: boolean;
}

/**
 * The registrable domain (eTLD+1) of `host`, or null when it has none: IP literals, single
 * labels, bare public suffixes, invalid names and (unless allowed) special-use or unknown suffixes.
 */
export function registrableDomain(host: string, options: DomainOptions = {}): string | null {
  let ascii: string;
  try {
    ascii = toAscii(host);
  } catch {
    return null;
  }
  if (looksLikeIp(ascii) || !ascii.includes(".")) return null;
  const allow = options.allowPrivateSuffixes ?? false;
  if (!allow && specialUse(ascii)) return null;
  const parsed = parse(ascii, { allowPrivateDomains: true });
  if (!allow && !parsed.isIcann && !parsed.isPrivate) return null;
  return parsed.domain;
}

/** Normalizes a user-supplied root domain; throws DomainError with an API-ready message. */
export function validateRootDomain(value: unknown, options: DomainOptions = {}): string {
  if (typeof value !== "string") throw new DomainError("domain must be a string");
  const raw = value.trim();
  const shown = JSON.stringify(value);
  if (!raw) throw new DomainError("domain is empty");
  if (raw.length > 300) throw new DomainError("domain is too long");
  if (raw.includes("://") || /^[a-zA-Z][a-zA-Z0-9+.-]*:\//.test(raw)) {
    throw new DomainError(
      `domain ${shown} looks like a URL: give the domain only, e.g. python.org`,
    );
  }
  if (raw.startsWith("[") || raw.split(":").length > 2) {
    throw new DomainError(`domain ${shown} is an IP address: give a domain name`);
  }
  for (const [char, what] of FORBIDDEN) {
    if (raw.includes(char))
      throw new DomainError(`domain ${shown} contains ${what}: give the domain only`);
  }
  if (raw.includes(":"))
    throw new DomainError(`domain ${shown} contains a port: give the domain only`);
  if (/\s/.test(raw)) throw new DomainError(`domain ${shown} contains whitespace`);

  const host = toAscii(raw);
  if (looksLikeIp(host))
    throw new DomainError(`domain ${shown} is an IP address: give a domain name`);
  if (!host.includes(".")) {
    throw new DomainError(
      `domain ${shown} is a single label: give a public domain such as python.org`,
    );
  }
  const allow = options.allowPrivateSuffixes ?? false;
  const special = specialUse(host);
  if (special && !allow) {
    throw new DomainError(
      `domain ${shown} is under the special-use suffix .${special}, which is not on the public internet`,
    );
  }
  const parsed = parse(host, { allowPrivateDomains: true });
  const known = parsed.isIcann === true || parsed.isPrivate === true;
  if (!known && !allow) throw new DomainError(`domain ${shown} is not under a known public suffix`);
  if (parsed.domain === null || parsed.publicSuffix === host) {
    throw new DomainError(`domain ${shown} is a public suffix: give a registrable domain under it`);
  }
  return parsed.domain;
}
