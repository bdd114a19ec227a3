/**
 * The SSRF guard at connect time. For each request it resolves the URL's host once (every A and
 * AAAA record), refuses the name when any address is not public (see address-policy.ts), and
 * gives the fetcher the address it checked: the fetcher connects to that IP literal with the
 * original `Host` header and, for https, the original name as TLS server name (SNI and the
 * certificate are checked against the name). No second lookup happens between check and connect,
 * so a DNS-rebinding answer cannot slip in.
 *
 * `WEBCORPUS_CONNECT_TO` rules (curl's `--connect-to HOST:PORT:ADDR:PORT`) are applied first.
 * Their ADDR is trusted when no `ALLOW_NETWORKS` are set (the operator named it); once an
 * allowlist is set it is the complete list of non-public networks the crawler may reach,
 * connect-to targets included. A URL whose host is an IP literal is never mapped and always
 * checked. `CONNECT_TO_ONLY` refuses any host no rule names (never asks DNS).
 */
import { isPublicAddress } from "./address-policy.ts";
import {
  type ConnectToRule,
  formatIp,
  type IpAddress,
  type IpNetwork,
  normalizeHost,
  parseIp,
  parseIpLiteral,
} from "./ip.ts";

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address of a name. Injected in tests (a rebinding resolver answers differently each call). */
export type Resolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/**
 * The system resolver: Bun's `dns.lookup` (getaddrinfo), every address, with Bun's own DNS cache
 * (30 s; BUN_CONFIG_DNS_TIME_TO_LIVE_SECONDS). A cached answer is safe: it is checked like a
 * fresh one, and the connection goes to the address checked.
 */
export const systemResolver: Resolver = async (host) => {
  const found = await Bun.dns.lookup(host);
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** The target address is not public and not allowed. */
export class SsrfError extends Error {
  override readonly name = "SsrfError";
}

/** The name did not resolve (or CONNECT_TO_ONLY refused to ask). */
export class DnsError extends Error {
  override readonly name = "DnsError";
}

/** Where one request goes. */
export interface ConnectTarget {
  /** The URL to hand to `fetch`: scheme, the checked IP literal, port, path and query. */
  readonly fetchUrl: string;
  /** The IP connected to. */
  readonly address: string;
  readonly port: number;
  /** `Host` header: the original host[:port]. */
  readonly hostHeader: string;
  /** TLS server name (SNI, certificate check) for https to a name; null otherwise. */
  readonly serverName: string | null;
}

export interface GuardOptions {
  readonly allow?: readonly IpNetwork[];
  readonly connectTo?: readonly ConnectToRule[];
  readonly connectToOnly?: boolean;
  readonly resolver?: Resolver;
}

const defaultPort = (protocol: string): number => (protocol === "https:" ? 443 : 80);
const literal = (ip: IpAddress): string => (ip.version === 6 ? `[${formatIp(ip)}]` : formatIp(ip));

export class ConnectGuard {
  readonly #allow: readonly IpNetwork[];
  readonly #rules: readonly ConnectToRule[];
  readonly #connectToOnly: boolean;
  readonly #resolver: Resolver;

  constructor(options: GuardOptions = {}) {
    this.#allow = options.allow ?? [];
    this.#rules = options.connectTo ?? [];
    this.#connectToOnly = options.connectToOnly ?? false;
    this.#resolver = options.resolver ?? systemResolver;
  }

  /** True when the crawler may connect to this address. */
  allows(ip: IpAddress): boolean {
    return isPublicAddress(ip, this.#allow);
  }

  /** The first connect-to rule for host:port, if any. */
  ruleFor(host: string, port: number): ConnectToRule | null {
    const h = normalizeHost(host);
    return (
      this.#rules.find(
        (r) => (r.host === null || r.host === h) && (r.port === null || r.port === port),
      ) ?? null
    );
  }

  /** Resolves and checks `url`'s host; throws SsrfError or DnsError. */
  async target(url: URL): Promise<ConnectTarget> {
    const port = url.port ? Number(url.port) : defaultPort(url.protocol);
    const hostname = url.hostname;
    const make = (ip: IpAddress, toPort: number, serverName: string | null): ConnectTarget => ({
      fetchUrl: `${url.protocol}//${literal(ip)}:${toPort}${url.pathname}${url.search}`,
      address: formatIp(ip),
      port: toPort,
      hostHeader: url.host,
      serverName: url.protocol === "https:" ? serverName : null,
    });

    const own = parseIpLiteral(hostname);
    if (own) {
      if (!this.allows(own)) throw new SsrfError(`address ${formatIp(own)} is not public`);
      return make(own, port, null);
    }

    const rule = this.ruleFor(hostname, port);
    if (!rule && this.#connectToOnly) {
      throw new DnsError(`${hostname}:${port} is not in connect_to (connect_to_only is on)`);
    }
    const targetHost = rule?.addr ?? hostname;
    const targetPort = rule?.addrPort ?? port;
    const trusted = rule?.addr != null && this.#allow.length === 0;
    const name = normalizeHost(hostname);

    const mapped = parseIp(targetHost) ?? parseIpLiteral(targetHost);
    if (mapped) {
      if (!trusted && !this.allows(mapped)) {
        throw new SsrfError(`${hostname} is mapped to the non-public address ${formatIp(mapped)}`);
      }
      return make(mapped, targetPort, name);
    }

    let found: readonly ResolvedAddress[];
    try {
      found = await this.#resolver(targetHost);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new DnsError(`${targetHost} did not resolve${code ? ` (${code})` : ""}`);
    }
    const ips = found.map((a) => parseIp(a.address.replace(/%.*$/, "")));
    if (ips.length === 0) throw new DnsError(`${targetHost} has no address`);
    const checked: IpAddress[] = [];
    for (const [i, ip] of ips.entries()) {
      if (!ip)
        throw new DnsError(`${targetHost} resolved to an unreadable address ${found[i]?.address}`);
      if (!trusted && !this.allows(ip)) {
        throw new SsrfError(`${hostname} resolves to the non-public address ${formatIp(ip)}`);
      }
      checked.push(ip);
    }
    // IPv4 first: a host whose AAAA record has no route here is common, the reverse is rare.
    const chosen = checked.find((ip) => ip.version === 4) ?? (checked[0] as IpAddress);
    return make(chosen, targetPort, name);
  }
}
