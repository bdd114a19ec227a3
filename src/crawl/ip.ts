/** IP addresses as bigints, CIDR networks, and the `ALLOW_NETWORKS` / `CONNECT_TO` settings. */

export type IpVersion = 4 | 6;

export interface IpAddress {
  readonly version: IpVersion;
  readonly value: bigint;
}

export interface IpNetwork {
  readonly version: IpVersion;
  readonly base: bigint;
  readonly prefix: number;
}

const V4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A dotted-quad IPv4 address (strict form: four decimal parts, no leading zeros). */
export function parseIpv4(text: string): IpAddress | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!V4_PART.test(part)) return null;
    value = (value << 8n) | BigInt(part);
  }
  return { version: 4, value };
}

/** An IPv6 address, with `::` compression and an optional trailing dotted quad; no zone id. */
export function parseIpv6(text: string): IpAddress | null {
  if (text.includes("%") || !/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let head = text;
  let tail: bigint[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".")) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = [v4.value >> 16n, v4.value & 0xffffn];
    const prefix = text.slice(0, lastColon + 1);
    head = prefix.endsWith("::") ? prefix : prefix.slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const group = (s: string): bigint[] | null => {
    if (s === "") return [];
    const out: bigint[] = [];
    for (const g of s.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(BigInt(`0x${g}`));
    }
    return out;
  };
  const left = group(halves[0] ?? "");
  const right = halves.length === 2 ? group(halves[1] ?? "") : [];
  if (!left || !right) return null;
  const known = left.length + right.length + tail.length;
  let groups: bigint[];
  if (halves.length === 2) {
    if (known > 7) return null;
    groups = [...left, ...new Array<bigint>(8 - known).fill(0n), ...right, ...tail];
  } else {
    if (known !== 8) return null;
    groups = [...left, ...tail];
  }
  let value = 0n;
  for (const g of groups) value = (value << 16n) | g;
  return { version: 6, value };
}

/** An IP literal as written in a URL host or a setting (`[::1]` brackets allowed). */
export function parseIp(text: string): IpAddress | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  return parseIpv4(bare) ?? parseIpv6(bare);
}

const bits = (version: IpVersion): number => (version === 4 ? 32 : 128);

export function parseNetwork(text: string): IpNetwork | null {
  const [addr, prefixText, extra] = text.trim().split("/");
  if (addr === undefined || extra !== undefined) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const width = bits(ip.version);
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? width : Number(prefixText);
  if (prefix > width) return null;
  const hostBits = BigInt(width - prefix);
  return { version: ip.version, base: (ip.value >> hostBits) << hostBits, prefix };
}

export function inNetwork(ip: IpAddress, net: IpNetwork): boolean {
  if (ip.version !== net.version) return false;
  const hostBits = BigInt(bits(net.version) - net.prefix);
  return ip.value >> hostBits === net.base >> hostBits;
}

/** The `WEBCORPUS_ALLOW_NETWORKS` setting: CIDRs or single addresses. */
export function parseNetworks(values: readonly string[]): IpNetwork[] {
  return values.map((value) => {
    const net = parseNetwork(value);
    if (!net) throw new Error(`entry ${JSON.stringify(value)} is not a CIDR such as 10.0.0.0/8`);
    return net;
  });
}

/** curl's `--connect-to HOST:PORT:ADDR:PORT`; an empty part matches any / keeps the original. */
export interface ConnectToRule {
  readonly host: string | null;
  readonly port: number | null;
  readonly addr: string | null;
  readonly addrPort: number | null;
}

const CONNECT_TO = /^(\[[^\]]*\]|[^:[\]]*):([^:]*):(\[[^\]]*\]|[^:[\]]*):([^:]*)$/;

export function normalizeHost(host: string): string {
  const h = host.trim().toLowerCase().replace(/\.$/, "");
  return h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
}

function parsePort(value: string, entry: string): number | null {
  if (value === "") return null;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : 0;
  if (port < 1 || port > 65535) {
    throw new Error(`entry ${JSON.stringify(entry)}: bad port ${JSON.stringify(value)}`);
  }
  return port;
}

export function parseConnectTo(values: readonly string[]): ConnectToRule[] {
  return values.map((raw) => {
    const entry = raw.trim();
    const m = CONNECT_TO.exec(entry);
    if (!m) {
      throw new Error(
        `entry ${JSON.stringify(raw)}: expected HOST:PORT:ADDR:PORT (e.g. docs.python.org:443:127.0.0.1:8443; IPv6 in brackets)`,
      );
    }
    const [, host = "", port = "", addr = "", addrPort = ""] = m;
    if (addr.startsWith("[") && !parseIp(addr)) {
      throw new Error(`entry ${JSON.stringify(raw)}: bad IPv6 address ${addr}`);
    }
    return {
      host: normalizeHost(host) || null,
      port: parsePort(port, raw),
      addr: normalizeHost(addr) || null,
      addrPort: parsePort(addrPort, raw),
    };
  });
}

/** One part of a WHATWG IPv4 host: decimal, octal (leading 0) or hex (0x). */
function ipv4Part(part: string): number | null {
  let digits = part;
  let base = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    base = 16;
    if (digits === "") return 0;
  } else if (part.length > 1 && part.startsWith("0")) {
    digits = part.slice(1);
    base = 8;
  }
  const valid = base === 16 ? /^[0-9a-f]+$/i : base === 8 ? /^[0-7]+$/ : /^\d+$/;
  return valid.test(digits) ? Number.parseInt(digits, base) : null;
}

/** The WHATWG URL IPv4 parser: 1-4 parts (`2130706433`, `127.1`, `0x7f.0.0.1`, `0177.0.0.1`). */
function parseLooseIpv4(host: string): IpAddress | null {
  const parts = host.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length < 1 || parts.length > 4 || parts.some((p) => p === "")) return null;
  const nums: number[] = [];
  for (const p of parts) {
    const n = ipv4Part(p);
    if (n === null) return null;
    nums.push(n);
  }
  const last = nums.pop() as number;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  let value = BigInt(last);
  nums.forEach((n, i) => {
    value += BigInt(n) << BigInt(8 * (3 - i));
  });
  return { version: 4, value };
}

/**
 * The address a browser would connect to for this URL host, or null for a domain name: full-width
 * digits and ideographic dots folded (NFKC), brackets and an IPv6 zone id (`%25eth0`) dropped.
 */
export function parseIpLiteral(host: string): IpAddress | null {
  let h = host
    .trim()
    .normalize("NFKC")
    .replace(/[\u3002\uff0e\uff61]/g, ".")
    .toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h === "") return null;
  if (h.includes(":")) return parseIpv6(h.replace(/%(25)?.*$/, ""));
  return parseLooseIpv4(h);
}

/** Dotted quad, or RFC 5952 compressed IPv6 (no brackets). */
export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) {
    return [24n, 16n, 8n, 0n].map((s) => ((ip.value >> s) & 0xffn).toString()).join(".");
  }
  const groups = Array.from({ length: 8 }, (_, i) =>
    Number((ip.value >> BigInt(112 - 16 * i)) & 0xffffn),
  );
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
}
