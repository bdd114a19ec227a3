/** Crawl scope (issue 32 §1): the scope kinds, glob semantics and the refusal of bad patterns. */
import { expect, test } from "bun:test";
import { CrawlScope, parseScope, patternProblem, scopeView } from "../../../src/crawl/scope.ts";

test("globs read as crawlee's: * within a segment, ** across; path and path?query", () => {
  const s = new CrawlScope("python.org", { exclude: ["**/genindex*", "/blog/*", "*.pdf"] });
  const why = (url: string) => s.excluded(url);
  expect(why("https://docs.python.org/3/genindex-A.html")).toBe("excluded by pattern **/genindex*");
  expect(why("https://docs.python.org/genindex.html")).toBe("excluded by pattern **/genindex*");
  expect(why("https://docs.python.org/3/genindex.html?x=a/b")).toBe(
    "excluded by pattern **/genindex*",
  );
  expect(why("https://python.org/blog/post")).toBe("excluded by pattern /blog/*");
  expect(why("https://python.org/blog/2024/post")).toBeNull(); // * stays in its segment
  expect(why("https://python.org/a/b/manual.pdf")).toBe("excluded by pattern *.pdf"); // any depth
  expect(why("https://python.org/3/library/")).toBeNull();
});

test("a query is matched too: /search?q=* excludes the search result pages", () => {
  const s = new CrawlScope("python.org", { exclude: ["/search?q=*"] });
  expect(s.excluded("https://python.org/search?q=abc")).toBe("excluded by pattern /search?q=*");
  expect(s.excluded("https://python.org/search")).toBeNull();
});

test("include: a URL must match one; exclude wins over include; start URLs skip the patterns", () => {
  const s = new CrawlScope("acme.com", {
    include: ["/docs/**", "/blog/**"],
    exclude: ["**/old/**"],
  });
  expect(s.refusal("https://acme.com/docs/a/b")).toBeNull();
  expect(s.refusal("https://acme.com/about")).toBe("excluded: matches no include pattern");
  expect(s.refusal("https://acme.com/docs/old/x")).toBe("excluded by pattern **/old/**");
  expect(s.refusal("https://acme.com/", true)).toBeNull();
});

test("scope kinds: domain, host, URL prefix", () => {
  expect(parseScope(undefined, "acme.com")).toEqual({ kind: "domain" });
  expect(parseScope("host", "acme.com")).toEqual({ kind: "host", host: null });
  expect(parseScope("https://Docs.Acme.com/3/", "acme.com")).toEqual({
    kind: "prefix",
    prefix: "https://docs.acme.com/3/",
  });
  expect(parseScope("https://other.com/", "acme.com")).toBe(
    "https://other.com/ is not under acme.com",
  );
  expect(parseScope("subdomains", "acme.com")).toContain('"domain", "host" or a URL prefix');
  const host = new CrawlScope("acme.com", { scope: "host" }, "docs.acme.com");
  expect(host.outside("https://docs.acme.com/x")).toBeNull();
  expect(host.outside("https://acme.com/x")).toBe("outside scope: host docs.acme.com");
  const bareHost = new CrawlScope("acme.com", { scope: "host" }, "acme.com");
  expect(bareHost.outside("https://www.acme.com/x")).toBeNull(); // www. and bare: one host
  expect(bareHost.outside("https://docs.acme.com/x")).toBe("outside scope: host acme.com");
  const prefix = new CrawlScope("acme.com", { scope: "https://docs.acme.com/3/" });
  expect(prefix.outside("https://docs.acme.com/3/x")).toBeNull();
  expect(prefix.outside("https://docs.acme.com/2/x")).toBe(
    "outside scope: https://docs.acme.com/3/",
  );
  expect(prefix.outside("http://docs.acme.com/3/x")).toBeNull(); // the site may answer on http
  expect(new CrawlScope("acme.com", { scope: "host" }).onHost("acme.com").kind).toEqual({
    kind: "host",
    host: "acme.com",
  });
});

test("bad patterns say what is wrong", () => {
  expect(patternProblem("/a[")).toBe("has an unclosed [");
  expect(patternProblem("/{a,b")).toBe("has an unclosed {");
  expect(patternProblem("/a}")).toBe("has an unmatched }");
  expect(patternProblem("")).toBe("is empty");
  expect(patternProblem("/a b")).toBe("contains whitespace or a control character");
  expect(patternProblem("/***/x")).toBe("has *** (use * or **)");
  expect(patternProblem("x".repeat(201))).toBe("is longer than 200 characters");
  expect(patternProblem("https://a.com/x")).toContain("is a URL");
  for (const ok of ["**/genindex*", "/blog/**", "/[a-z]*/{x,y}.html", "\\[literal"])
    expect(patternProblem(ok)).toBeNull();
});

test("the view of a scope: what it covers in one line", () => {
  expect(scopeView("acme.com", {}, null).label).toBe("acme.com and its subdomains");
  expect(
    scopeView("acme.com", { scope: "host", include: ["/docs/**"] }, "docs.acme.com").label,
  ).toBe("docs.acme.com including /docs/**");
});
