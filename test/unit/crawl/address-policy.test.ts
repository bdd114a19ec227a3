import { describe, expect, test } from "bun:test";
import { isPublicAddress } from "../../../src/crawl/address-policy.ts";
import { ConnectGuard, DnsError, type Resolver, SsrfError } from "../../../src/crawl/guard.ts";
import {
  formatIp,
  type IpAddress,
  parseConnectTo,
  parseIp,
  parseIpLiteral,
  parseNetworks,
} from "../../../src/crawl/ip.ts";

const ip = (text: string): IpAddress => {
  const parsed = parseIp(text);
  if (!parsed) throw new Error(`bad test address ${text}`);
  return parsed;
};

const REFUSED = [
  "127.0.0.1",
  "127.255.255.254",
  "10.1.2.3",
  "172.16.0.1",
  "172.31.255.255",
  "192.168.1.1",
  "169.254.169.254", // cloud metadata
  "169.254.0.1",
  "100.64.0.1", // CGNAT
  "100.127.255.254",
  "224.0.0.1", // multicast
  "239.255.255.250",
  "0.0.0.0",
  "0.1.2.3",
  "255.255.255.255",
  "240.0.0.1",
  "198.18.0.1", // benchmarking
  "198.19.255.255",
  "192.0.2.1", // documentation
  "198.51.100.7",
  "203.0.113.9",
  "192.0.0.8",
  "::1",
  "::",
  "fc00::1", // ULA
  "fd12:3456::1",
  "fe80::1", // link-local
  "fec0::1", // site-local
  "ff02::1", // multicast
  "2001:db8::1", // documentation
  "::ffff:10.0.0.1", // IPv4-mapped
  "::ffff:127.0.0.1",
  "::ffff:8.8.8.8", // mapped is refused even when the IPv4 is public
  "::10.0.0.1", // IPv4-compatible
  "::8.8.8.8",
  "64:ff9b::a00:1", // NAT64 of 10.0.0.1
  "64:ff9b::7f00:1", // NAT64 of 127.0.0.1
  "64:ff9b::a9fe:a9fe", // NAT64 of 169.254.169.254
  "64:ff9b:1::1", // local-use NAT64
  "2002:a00:1::1", // 6to4 of 10.0.0.1
  "2002:7f00:1::", // 6to4 of 127.0.0.1
  "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
  "100::1", // discard
  "5f00::1", // SRv6
];
const ALLOWED = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "2606:4700::1111",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

describe("isPublicAddress", () => {
  test.each(REFUSED)("refuses %p", (addr) => {
    expect(isPublicAddress(ip(addr))).toBe(false);
  });
  test.each(ALLOWED)("allows %p", (addr) => {
    expect(isPublicAddress(ip(addr))).toBe(true);
  });
  test("ALLOW_NETWORKS lets listed networks through, and their embedded forms", () => {
    const allow = parseNetworks(["127.0.0.0/8", "fd00::/8"]);
    expect(isPublicAddress(ip("127.0.0.1"), allow)).toBe(true);
    expect(isPublicAddress(ip("fd00::5"), allow)).toBe(true);
    expect(isPublicAddress(ip("::ffff:127.0.0.1"), allow)).toBe(true); // same destination
    expect(isPublicAddress(ip("10.0.0.1"), allow)).toBe(false);
    expect(isPublicAddress(ip("::1"), allow)).toBe(false);
  });
});

describe("parseIpLiteral (the address a browser would connect to)", () => {
  const cases: [string, string][] = [
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f.0.0.1", "127.0.0.1"],
    ["0x7F000001", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["127.0.0.1.", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["169.254.43518", "169.254.169.254"],
    ["0xa9.0xfe.0xa9.0xfe", "169.254.169.254"],
    ["\uff11\uff12\uff17.\uff10.\uff10.\uff11", "127.0.0.1"], // full-width digits
    ["127\u30020\u30020\u30021", "127.0.0.1"], // ideographic full stop
    ["[::1]", "::1"],
    ["[::ffff:7f00:1]", "::ffff:7f00:1"],
    ["::1", "::1"],
    ["[fe80::1%25eth0]", "fe80::1"],
  ];
  test.each(cases)("%p is %p", (host, expected) => {
    const parsed = parseIpLiteral(host);
    expect(parsed && formatIp(parsed)).toBe(formatIp(ip(expected)));
  });
  test.each([
    "example.com",
    "docs.python.org",
    "",
    "256.1.1.1",
    "1.2.3.4.5",
    "08.0.0.1",
    "foo.123",
    "[zz]",
  ])("%p is no address", (host) => {
    expect(parseIpLiteral(host)).toBeNull();
  });
});

test("formatIp compresses IPv6 the RFC 5952 way", () => {
  expect(formatIp(ip("2001:db8:0:0:1:0:0:1"))).toBe("2001:db8::1:0:0:1");
  expect(formatIp(ip("0:0:0:0:0:0:0:0"))).toBe("::");
  expect(formatIp(ip("fe80:0:0:0:0:0:0:1"))).toBe("fe80::1");
  expect(formatIp(ip("1:2:3:4:5:6:7:8"))).toBe("1:2:3:4:5:6:7:8");
  expect(formatIp(ip("1:0:3:4:5:6:7:8"))).toBe("1:0:3:4:5:6:7:8");
});

test("parseConnectTo", () => {
  const rules = parseConnectTo([
    "docs.python.org:80:127.0.0.1:8401",
    "::127.0.0.1:9000",
    "Example.test:443:[::1]:",
  ]);
  expect(rules).toEqual([
    { host: "docs.python.org", port: 80, addr: "127.0.0.1", addrPort: 8401 },
    { host: null, port: null, addr: "127.0.0.1", addrPort: 9000 },
    { host: "example.test", port: 443, addr: "::1", addrPort: null },
  ]);
  for (const bad of [
    "docs.python.org:80:127.0.0.1",
    "a:b:c:d",
    "a:80:127.0.0.1:99999",
    "x",
    "[::1:80::1",
  ]) {
    expect(() => parseConnectTo([bad])).toThrow("entry");
  }
});

/** Answers each lookup from a list of answers, the last one repeated; counts the calls. */
function staticResolver(answers: string[][]): Resolver & { calls: number } {
  const resolver = Object.assign(
    async (_host: string) => {
      const addrs = answers[Math.min(resolver.calls, answers.length - 1)] ?? [];
      resolver.calls++;
      return addrs.map((address) => ({
        address,
        family: address.includes(":") ? (6 as const) : (4 as const),
      }));
    },
    { calls: 0 },
  );
  return resolver;
}

describe("ConnectGuard.target", () => {
  const url = (u: string) => new URL(u);

  test("a name is refused when any of its addresses is not public", async () => {
    const guard = new ConnectGuard({ resolver: staticResolver([["8.8.8.8", "10.0.0.1"]]) });
    await expect(guard.target(url("http://mixed.example/"))).rejects.toBeInstanceOf(SsrfError);
  });

  test("every lookup is checked again (DNS rebinding), and the checked address is the one used", async () => {
    const resolver = staticResolver([["8.8.8.8"], ["127.0.0.1"]]);
    const guard = new ConnectGuard({ resolver });
    const first = await guard.target(url("https://rebind.example/a?b=1"));
    expect(first).toEqual({
      fetchUrl: "https://8.8.8.8:443/a?b=1",
      address: "8.8.8.8",
      port: 443,
      hostHeader: "rebind.example",
      serverName: "rebind.example",
    });
    await expect(guard.target(url("https://rebind.example/"))).rejects.toBeInstanceOf(SsrfError);
    expect(resolver.calls).toBe(2); // one lookup per connection, never a second one before connecting
  });

  test("IPv6 answers are bracketed; IPv4 preferred when both", async () => {
    const v6 = new ConnectGuard({ resolver: staticResolver([["2606:4700::1111"]]) });
    expect((await v6.target(url("http://v6.example:8080/"))).fetchUrl).toBe(
      "http://[2606:4700::1111]:8080/",
    );
    const both = new ConnectGuard({ resolver: staticResolver([["2606:4700::1111", "1.1.1.1"]]) });
    expect((await both.target(url("http://both.example/"))).address).toBe("1.1.1.1");
  });

  test("a connect-to rule is trusted without an allowlist", async () => {
    const guard = new ConnectGuard({
      connectTo: parseConnectTo(["example.test:80:127.0.0.1:8401"]),
      resolver: staticResolver([]),
    });
    const t = await guard.target(url("http://example.test/x"));
    expect([t.address, t.port, t.hostHeader]).toEqual(["127.0.0.1", 8401, "example.test"]);
    await expect(guard.target(url("https://example.test/"))).rejects.toBeInstanceOf(DnsError); // 443 is not mapped
  });

  test("connect-to targets must pass an explicit allowlist", async () => {
    const guard = new ConnectGuard({
      allow: parseNetworks(["127.0.0.1/32"]),
      connectTo: parseConnectTo(["site.test:80:127.0.0.1:8000", "internal.test:80:127.0.0.2:8000"]),
    });
    expect((await guard.target(url("http://site.test/"))).address).toBe("127.0.0.1");
    await expect(guard.target(url("http://internal.test/"))).rejects.toBeInstanceOf(SsrfError);
  });

  test("a port-only rule is still guarded", async () => {
    const guard = new ConnectGuard({
      connectTo: parseConnectTo(["localhost:80::8080"]),
      resolver: staticResolver([["127.0.0.1"]]),
    });
    await expect(guard.target(url("http://localhost/"))).rejects.toBeInstanceOf(SsrfError);
  });

  test("CONNECT_TO_ONLY never asks DNS", async () => {
    const resolver = staticResolver([["8.8.8.8"]]);
    const guard = new ConnectGuard({
      connectToOnly: true,
      connectTo: parseConnectTo(["a.test:80:127.0.0.1:1"]),
      resolver,
    });
    await expect(guard.target(url("http://b.test/"))).rejects.toThrow("connect_to_only");
    expect(resolver.calls).toBe(0);
  });

  test("URL hosts that are IP literals are always checked, never mapped", async () => {
    const guard = new ConnectGuard({ connectTo: parseConnectTo(["::127.0.0.1:9000"]) });
    await expect(guard.target(url("http://[::ffff:127.0.0.1]/"))).rejects.toBeInstanceOf(SsrfError);
    await expect(guard.target(url("http://2130706433/"))).rejects.toBeInstanceOf(SsrfError);
    const allowed = new ConnectGuard({ allow: parseNetworks(["127.0.0.0/8"]) });
    expect((await allowed.target(url("http://0x7f.1:81/"))).fetchUrl).toBe("http://127.0.0.1:81/");
  });

  test("a name that does not resolve is a DNS error", async () => {
    const guard = new ConnectGuard({
      resolver: async () => {
        throw Object.assign(new Error("nope"), { code: "ENOTFOUND" });
      },
    });
    await expect(guard.target(url("http://gone.example/"))).rejects.toThrow(
      "did not resolve (ENOTFOUND)",
    );
    const empty = new ConnectGuard({ resolver: staticResolver([[]]) });
    await expect(empty.target(url("http://empty.example/"))).rejects.toBeInstanceOf(DnsError);
  });
});
