import { expect, test } from "bun:test";
import { DomainError, registrableDomain, validateRootDomain } from "../../../src/crawl/domains.ts";

test.each([
  ["python.org", "python.org"],
  ["Python.ORG.", "python.org"],
  ["docs.python.org", "python.org"],
  ["www.bbc.co.uk", "bbc.co.uk"],
  ["foo.github.io", "foo.github.io"],
  ["bücher.de", "xn--bcher-kva.de"],
  ["  example.com ", "example.com"],
])("%s is crawled as %s", (given, root) => {
  expect(validateRootDomain(given)).toBe(root);
});

test.each([
  ["", "empty"],
  ["localhost", "single label"],
  ["10.0.0.1", "IP address"],
  ["2130706433", "IP address"],
  ["0x7f.1", "IP address"],
  ["[::1]", "IP address"],
  ["::1", "IP address"],
  ["http://x.com/path", "looks like a URL"],
  ["x.com/path", "a path"],
  ["x.com:8080", "a port"],
  ["user@x.com", "user info"],
  ["printer.local", "special-use suffix .local"],
  ["acme.test", "special-use suffix .test"],
  ["intranet.corp", "special-use"],
  ["co.uk", "public suffix"],
  ["github.io", "public suffix"],
  ["example.notatld", "not under a known public suffix"],
  ["a..b.com", "invalid label"],
  ["-a.com", "invalid label"],
  ["a b.com", "whitespace"],
  ["x".repeat(301), "too long"],
])("%j is refused (%s)", (given, message) => {
  expect(() => validateRootDomain(given)).toThrow(DomainError);
  expect(() => validateRootDomain(given)).toThrow(message);
});

test("non-string values are refused", () => {
  expect(() => validateRootDomain(42)).toThrow("must be a string");
});

test("special-use and unknown suffixes are accepted when the operator allows them", () => {
  const allow = { allowPrivateSuffixes: true };
  expect(validateRootDomain("www.acme.test", allow)).toBe("acme.test");
  expect(validateRootDomain("hostile.example", allow)).toBe("hostile.example");
  expect(registrableDomain("docs.acme.internal", allow)).toBe("acme.internal");
  expect(registrableDomain("docs.acme.internal")).toBeNull();
});

test("registrableDomain gives null for hosts that have none", () => {
  expect(registrableDomain("www.python.org")).toBe("python.org");
  for (const host of ["127.0.0.1", "[::1]", "localhost", "co.uk", "bad..host"])
    expect(registrableDomain(host)).toBeNull();
});
