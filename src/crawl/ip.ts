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
