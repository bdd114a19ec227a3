import { expect, test } from "bun:test";
import { inNetwork, parseIp, parseNetwork } from "../../../src/crawl/ip.ts";

test.each([
  ["127.0.0.1", 4, 0x7f000001n],
  ["::1", 6, 1n],
  ["::", 6, 0n],
  ["[::ffff:10.0.0.1]", 6, 0xffff0a000001n],
  ["2001:db8::8a2e:370:7334", 6, 0x20010db80000000000008a2e03707334n],
  ["1:2:3:4:5:6:7:8", 6, 0x00010002000300040005000600070008n],
])("%s parses", (text, version, value) => {
  expect(parseIp(text)).toEqual({ version: version as 4 | 6, value });
});

test.each([
  "256.0.0.1",
  "1.2.3",
  "01.2.3.4",
  "1:2:3:4:5:6:7:8:9",
  "1::2::3",
  "fe80::1%eth0",
  "gggg::",
  "",
  "a.b.c.d",
])("%j is not an address", (text) => {
  expect(parseIp(text)).toBeNull();
});

test("networks contain what they should", () => {
  const ten = parseNetwork("10.0.0.0/8");
  const ula = parseNetwork("fc00::/7");
  if (!ten || !ula) throw new Error("parse");
  expect(inNetwork(parseIp("10.255.1.2") ?? { version: 4, value: 0n }, ten)).toBe(true);
  expect(inNetwork(parseIp("11.0.0.1") ?? { version: 4, value: 0n }, ten)).toBe(false);
  expect(inNetwork(parseIp("fd12::1") ?? { version: 6, value: 0n }, ula)).toBe(true);
  expect(inNetwork(parseIp("::ffff:10.0.0.1") ?? { version: 6, value: 0n }, ten)).toBe(false);
  expect(parseNetwork("10.1.2.3/8")?.base).toBe(0x0a000000n);
  expect(parseNetwork("10.0.0.0/33")).toBeNull();
  expect(parseNetwork("10.0.0.0/8/1")).toBeNull();
});
