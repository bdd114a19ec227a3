/** Counted nouns in messages: "1 company", "2 companies", "0 pages". */
import { expect, test } from "bun:test";
import { startLine } from "../../src/cli/serve-command.ts";
import { TrapGuard } from "../../src/crawl/trap-guard.ts";
import { counted } from "../../src/plural.ts";
import { describeChecks } from "../../src/search/graph-check.ts";
import { RateLimiter } from "../../src/services/rate-limiter.ts";

test("counted picks the singular for one, the plural otherwise", () => {
  expect(counted(1, "page")).toBe("1 page");
  expect(counted(0, "page")).toBe("0 pages");
  expect(counted(2, "company", "companies")).toBe("2 companies");
  expect(counted(1, "company", "companies")).toBe("1 company");
  expect(counted(1, "fetch", "fetches")).toBe("1 fetch");
  expect(counted(12_000, "chunk")).toBe("12000 chunks");
});

test("messages with a count of one read in the singular", () => {
  const limiter = new RateLimiter(1, () => 0);
  limiter.take("a");
  expect(() => limiter.take("a")).toThrow("at most 1 crawl start per minute per key");
  const guard = new TrapGuard({ maxQueryParams: 0, maxQueryVariantsPerPath: 1 });
  expect(guard.check("https://a.test/x?a=1", 0)).toBe(
    "trap: 1 query parameter (max_query_params 0)",
  );
  const variants = new TrapGuard({ maxQueryVariantsPerPath: 1 });
  expect(variants.check("https://a.test/x?a=1", 0)).toBeNull();
  expect(variants.check("https://a.test/x?a=2", 0)).toContain("more than 1 query variant of");
  expect(describeChecks([{ cosine: 0.5, passagesOn: "precise" } as never])).toContain(
    "FAILED on 1 of 1 lane:",
  );
});

test("serve's start-up line: one crawl worker, and the addresses of Swagger UI and MCP", () => {
  const line = startLine("1.0.0", "127.0.0.1", 8000, "./data", counted(1, "crawl worker"));
  expect(line).toContain("(data: ./data; 1 crawl worker)");
  expect(line).toContain("http://127.0.0.1:8000/api/docs");
  expect(line).toContain("http://127.0.0.1:8000/api/mcp");
  expect(startLine("1.0.0", "::1", 8000, "d", "no crawl workers")).toContain(
    "http://[::1]:8000/api/docs",
  );
});
