/**
 * Which addresses the crawler may connect to: globally routable unicast, or inside a network the
 * operator allowed (`WEBCORPUS_ALLOW_NETWORKS`). IPv6 forms that carry an IPv4 destination
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by that destination.
 */
import { type IpAddress, type IpNetwork, inNetwork, parseNetwork } from "./ip.ts";

const nets = (list: readonly string[]): IpNetwork[] =>
  list.map((cidr) => {
    const net = parseNetwork(cidr);
    if (!net) throw new Error(`bad built-in network ${cidr}`);
    return net;
  });

const V4_BLOCKED = nets([
  "0.0.0.0/8", // "this network", incl. unspecified
  "10.0.0.0/8",
  "100.64.0.0/10", // CGNAT shared address space
  "127.0.0.0/8",
  "169.254.0.0/16", // link-local, cloud metadata 169.254.169.254
  "172.16.0.0/12",
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // TEST-NET-1
  "192.31.196.0/24", // AS112
  "192.52.193.0/24", // AMT
  "192.88.99.0/24", // 6to4 relay anycast
  "192.168.0.0/16",
  "192.175.48.0/24", // AS112 direct delegation
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // TEST-NET-2
  "203.0.113.0/24", // TEST-NET-3
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, incl. broadcast 255.255.255.255
]);

/** Global unicast is 2000::/3; inside it these are not routable destinations. */
const V6_GLOBAL = nets(["2000::/3"]);
const V6_BLOCKED = nets([
  "2001::/23", // IETF protocol assignments, incl. Teredo 2001::/32, ORCHID, benchmarking
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation
]);
const [MAPPED, COMPATIBLE, NAT64, SIX_TO_FOUR] = nets([
  "::ffff:0:0/96",
  "::/96",
  "64:ff9b::/96",
  "2002::/16",
]) as [IpNetwork, IpNetwork, IpNetwork, IpNetwork];

const v4 = (value: bigint): IpAddress => ({ version: 4, value: value & 0xffffffffn });

/** The IPv4 destination an IPv6 address stands for, if it is one of the embedding forms. */
export function embeddedIpv4(ip: IpAddress): IpAddress | null {
  if (ip.version !== 6) return null;
  if (inNetwork(ip, MAPPED) || inNetwork(ip, NAT64)) return v4(ip.value);
  if (inNetwork(ip, SIX_TO_FOUR)) return v4(ip.value >> 80n);
  if (inNetwork(ip, COMPATIBLE) && ip.value > 1n) return v4(ip.value);
  return null;
}

const inAny = (ip: IpAddress, list: readonly IpNetwork[]) => list.some((n) => inNetwork(ip, n));

/** True when the crawler may connect to `ip`. */
export function isPublicAddress(ip: IpAddress, allow: readonly IpNetwork[] = []): boolean {
  if (inAny(ip, allow)) return true;
  if (ip.version === 4) return !inAny(ip, V4_BLOCKED);
  const embedded = embeddedIpv4(ip);
  if (embedded && inAny(embedded, allow)) return true;
  // Translation prefixes reach the embedded IPv4 address; mapped/compatible forms are refused
  // outright (a socket would reach the IPv4 host directly, around any IPv6 firewall rule).
  if (inNetwork(ip, NAT64) || inNetwork(ip, SIX_TO_FOUR)) {
    return embedded !== null && isPublicAddress(embedded);
  }
  return inAny(ip, V6_GLOBAL) && !inAny(ip, V6_BLOCKED);
}
