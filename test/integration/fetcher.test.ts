import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { testConfig } from "../../src/config.ts";
import { classify } from "../../src/crawl/fetch-errors.ts";
import { contentType, location, parseRetryAfter } from "../../src/crawl/fetch-result.ts";
import { ACCEPT_ENCODING, Fetcher, fetcherOptions } from "../../src/crawl/fetcher.ts";
import { HostThrottle } from "../../src/crawl/politeness.ts";
import {
  gzipBomb,
  type HostileSite,
  serveGzipBomb,
  startHostileSite,
} from "./support/hostile-site.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const MB = 1 << 20;
let site: HostileSite | null = null;
afterEach(async () => {
  await site?.stop();
  site = null;
});

async function setup(settings: Record<string, string> = {}) {
  site = await startHostileSite();
  const config = testConfig({
    ALLOW_NETWORKS: "127.0.0.1/32",
    CONNECT_TIMEOUT_S: "2",
    READ_TIMEOUT_S: "2",
    MAX_RETRIES: "2",
    MAX_RETRY_AFTER_S: "5",
    ...settings,
  });
  const fetcher = new Fetcher({ ...fetcherOptions(config), backoffBaseMs: 20 });
  return { site, fetcher, base: site.base };
}

/**
 * Growth of this process's peak RSS from now (MB): the kernel's high-water mark (VmHWM, reset
 * through /proc/self/clear_refs) where Linux has it, else the largest RSS sampled every 2 ms.
 */
function peakRss(): { grewMb(): number } {
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return {
      grewMb: () => {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
        return (Number(kb) * 1024 - before) / MB;
      },
    };
  } catch {
    let max = before;
    const timer = setInterval(() => {
      max = Math.max(max, process.memoryUsage().rss);
    }, 2);
    return {
      grewMb: () => {
        clearInterval(timer);
        return (Math.max(max, process.memoryUsage().rss) - before) / MB;
      },
    };
  }
}

describe("fetch", () => {
  test("plain fetch sends our headers", async () => {
    const { fetcher, base } = await setup();
    const res = await fetcher.fetch(`${base}/ok`);
    expect(res.error).toBeNull();
    expect(res.status).toBe(200);
    expect(contentType(res)).toBe("text/html");
    expect(new TextDecoder().decode(res.body)).toBe("hello");
    expect(res.attempts).toBe(1);
    expect(res.address).toBe("127.0.0.1");
    const echo = JSON.parse(
      new TextDecoder().decode(
        (await fetcher.fetch(`${base}/echo`, { accept: "application/xml" })).body,
      ),
    );
    expect(echo["user-agent"]).toStartWith("webcorpus/");
    expect(echo.accept).toBe("application/xml");
    expect(echo["accept-encoding"]).toBe(ACCEPT_ENCODING);
    expect(echo["if-none-match"]).toBeUndefined();
  });

  test("a gzip body is decompressed", async () => {
    const { fetcher, base } = await setup();
    const res = await fetcher.fetch(`${base}/gz`);
    expect(new TextDecoder().decode(res.body)).toBe("<p>compressed page</p>".repeat(100));
  });

  test.each(["/bomb", "/br-bomb"])(
    "a decompression bomb (%p) stops at the cap, in little memory",
    async (path) => {
      const { fetcher, base } = await setup({ MAX_BODY_BYTES: String(4 * MB) });
      Bun.gc(true);
      const before = process.memoryUsage().rss;
      const res = await fetcher.fetch(`${base}${path}`);
      const grewMb = (process.memoryUsage().rss - before) / MB;
      expect(res.error?.kind).toBe("too_large");
      expect(res.error?.detail).toContain("decompressed");
      expect(res.status).toBe(200);
      expect(res.body.byteLength).toBe(0);
      expect(grewMb).toBeLessThan(64); // 1 GiB (gzip) or 256 MiB (br) inflated
      expect((await fetcher.fetch(`${base}/ok`)).status).toBe(200); // the next request works
    },
  );

  test("eight 2 GiB gzip bombs at once: peak RSS stays within 4 caps each (+32 MiB)", async () => {
    // Bun's own decompression inflated whole network reads at once, past the cap: this grew the
    // peak RSS by 273-308 MB (6 runs of 6 failed); inflated by body-decoder.ts, 31-35 MB. The
    // bombs stream chunked (no Content-Length to refuse them on).
    const cap = MB;
    const bomb = gzipBomb(2048);
    const server = serveGzipBomb(bomb);
    try {
      const config = testConfig({ ALLOW_NETWORKS: "127.0.0.1/32", MAX_BODY_BYTES: String(cap) });
      const fetcher = new Fetcher(fetcherOptions(config));
      const url = `http://127.0.0.1:${server.port}/`;
      await fetcher.fetch(url); // warm: the first fetch loads what every later one shares
      const peak = peakRss();
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(Array.from({ length: 8 }, () => fetcher.fetch(url)));
        for (const res of results) {
          expect(res.error).toEqual({
            kind: "too_large",
            detail: `body over ${cap} bytes (decompressed)`,
          });
        }
        Bun.gc(true); // what a round left is garbage, not what the next one may hold
      }
      expect(peak.grewMb()).toBeLessThan((8 * 4 * cap) / MB + 32);
    } finally {
      await server.stop(true);
    }
  });

  test("an uncompressed body over the cap without Content-Length", async () => {
    const { fetcher, base } = await setup({ MAX_BODY_BYTES: String(MB) });
    const res = await fetcher.fetch(`${base}/big`);
    expect(res.error?.kind).toBe("too_large");
    expect((await fetcher.fetch(`${base}/ok`)).status).toBe(200);
  });

  test("a 60 MB page is cut at the default 10 MiB cap", async () => {
    const { fetcher, base } = await setup();
    const res = await fetcher.fetch(`${base}/huge`);
    expect(res.error).toEqual({
      kind: "too_large",
      detail: `body over ${10 * MB} bytes`,
    });
  });

  test("a Content-Length over the cap is refused on the header alone", async () => {
    const { fetcher, site } = await setup({ MAX_BODY_BYTES: String(MB) });
    const started = performance.now();
    const res = await fetcher.fetch(site.hugeClUrl);
    expect(performance.now() - started).toBeLessThan(2000); // the body stalls for 5 s
    expect(res.error?.kind).toBe("too_large");
    expect(res.error?.detail).toContain("Content-Length");
  });

  test("a connection dropped mid-body is an error, and retried", async () => {
    const { fetcher, site } = await setup({ MAX_RETRIES: "1" });
    const res = await fetcher.fetch(site.dropUrl);
    expect(res.error?.kind).toBe("connect");
    expect(res.body.byteLength).toBe(0);
    expect(res.attempts).toBe(2);
  });

  test("headers that never come: read timeout", async () => {
    const { fetcher, base } = await setup({
      READ_TIMEOUT_S: "0.3",
      CONNECT_TIMEOUT_S: "0.3",
      MAX_RETRIES: "0",
    });
    const res = await fetcher.fetch(`${base}/slow`);
    expect(res.error?.kind).toBe("timeout");
    expect(res.status).toBe(0);
  });

  test("a slow drip is cut by the read timeout between body bytes", async () => {
    const { fetcher, base } = await setup({ READ_TIMEOUT_S: "0.2", MAX_RETRIES: "0" });
    const res = await fetcher.fetch(`${base}/drip`);
    expect(res.error).toEqual({ kind: "timeout", detail: "no body bytes for 0.2 s" });
    expect(res.status).toBe(200);
  });

  test("a refused connection is not retried", async () => {
    const { fetcher, site } = await setup();
    const url = `${site.base}/ok`;
    await site.stop();
    const res = await fetcher.fetch(url);
    expect(res.error?.kind).toBe("connect");
    expect(res.error?.detail).toStartWith("refused:");
    expect(res.attempts).toBe(1);
  });

  test("an unresolvable name is a DNS error", async () => {
    const { fetcher } = await setup();
    const res = await fetcher.fetch("http://no-such-host.invalid/");
    expect(res.error?.kind).toBe("dns");
    expect(res.attempts).toBe(1);
  });

  test("503 with Retry-After: 1 is waited on and retried", async () => {
    const { fetcher, base, site } = await setup();
    const waits: number[] = [];
    const timed = new Fetcher({ ...fetcher.options, sleep: async (ms) => void waits.push(ms) });
    const res = await timed.fetch(`${base}/flaky`);
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(site.count("/flaky")).toBe(2);
    expect(waits).toEqual([1000]);
  });

  test("flaky 500 on every other hit: retried with backoff", async () => {
    const { fetcher, base, site } = await setup();
    const res = await fetcher.fetch(`${base}/flaky500`);
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(site.count("/flaky500")).toBe(2);
  });

  test("429 with a Retry-After past the cap is not waited on", async () => {
    const { fetcher, base, site } = await setup();
    const res = await fetcher.fetch(`${base}/limited`);
    expect(res.status).toBe(429);
    expect(res.error).toBeNull();
    expect(res.attempts).toBe(1);
    expect(site.count("/limited")).toBe(1);
    expect(res.headers["retry-after"]).toBe("3600");
  });

  test("a throttled answer spends no retry and slows the host down", async () => {
    const { base, site, fetcher } = await setup({ MAX_RETRIES: "0" });
    const held: number[] = [];
    const pacer = new HostThrottle({
      delayMs: 0,
      concurrency: 2,
      sleep: async (ms) => void held.push(ms),
    });
    const paced = new Fetcher({ ...fetcher.options, pacer, sleep: async () => {} });
    const res = await paced.fetch(`${base}/throttle-once`);
    expect(res.status).toBe(200); // no retry was left, yet the 429 was retried
    expect(site.count("/throttle-once")).toBe(2);
    expect(held).toHaveLength(1); // the host was held for its Retry-After: 1
    expect(held[0]).toBeGreaterThan(900);
  });

  test("502 is retried up to max_retries", async () => {
    const { fetcher, base, site } = await setup({ MAX_RETRIES: "2" });
    const res = await fetcher.fetch(`${base}/gateway`);
    expect(res.status).toBe(502);
    expect(res.attempts).toBe(3);
    expect(site.count("/gateway")).toBe(3);
  });

  test("conditional GET: 304 for a known ETag or date", async () => {
    const { fetcher, base } = await setup();
    const first = await fetcher.fetch(`${base}/cond`);
    expect(first.headers.etag).toBe('"v1"');
    const again = await fetcher.fetch(`${base}/cond`, { etag: first.headers.etag ?? null });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(again.error).toBeNull();
    const since = await fetcher.fetch(`${base}/cond`, {
      lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
    });
    expect(since.status).toBe(304);
  });

  test("fetch returns a redirect as is", async () => {
    const { fetcher, base } = await setup();
    const res = await fetcher.fetch(`${base}/redirect`);
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/ok");
    expect(res.attempts).toBe(1);
  });

  test("bad schemes and bad content encoding", async () => {
    const { fetcher, base } = await setup();
    for (const url of ["ftp://example.com/x", "file:///etc/passwd", "javascript:alert(1)"]) {
      expect((await fetcher.fetch(url)).error?.kind).toBe("bad_scheme");
    }
    const res = await fetcher.fetch(`${base}/bad-gzip`);
    expect(res.error?.kind).toBe("protocol");
    expect(res.error?.detail).toContain("content encoding");
  });
});

describe("fetchFollowing", () => {
  test("follows a chain hop by hop", async () => {
    const { fetcher, base } = await setup();
    const res = await fetcher.fetchFollowing(`${base}/redirect/chain-1`);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/redirect/final`);
    expect(res.redirects.map((h) => [h.status, h.location])).toEqual([
      [301, `${base}/redirect/chain-2`],
      [302, `${base}/redirect/final`],
    ]);
  });

  test("a loop ends as a redirect error", async () => {
    const { fetcher, base } = await setup();
    const res = await fetcher.fetchFollowing(`${base}/redirect/loop-a`);
    expect(res.error?.kind).toBe("redirect");
    expect(res.error?.detail).toContain("loop");
  });

  test("max hops", async () => {
    const { fetcher, base } = await setup();
    const res = await fetcher.fetchFollowing(`${base}/redirect/chain-1`, { maxHops: 1 });
    expect(res.error).toEqual({ kind: "redirect", detail: "more than 1 redirect" });
  });

  test("a redirect to file: is refused", async () => {
    const { fetcher, base } = await setup();
    const res = await fetcher.fetchFollowing(`${base}/redirect/to-file`);
    expect(res.error?.kind).toBe("bad_scheme");
  });

  test("every hop passes the caller's rule", async () => {
    const { fetcher, base, site } = await setup();
    const res = await fetcher.fetchFollowing(`${base}/redirect/to-other-site`, {
      refuseHop: (url) => (url.includes("elsewhere") ? "out of scope" : null),
    });
    expect(res.status).toBe(302);
    expect(site.hits.map((h) => h.path)).toEqual(["/redirect/to-other-site"]);
  });
});

test("classify groups outcomes by what a retry does", () => {
  const r = (
    status: number,
    headers: Record<string, string> = {},
    error: null | { kind: "connect"; detail: string } = null,
  ) => ({
    url: "http://x/",
    status,
    headers,
    body: new Uint8Array(0),
    elapsedMs: 1,
    error,
    attempts: 1,
    address: null,
    redirects: [],
  });
  expect(classify(r(200), 60).retry).toBe("nonRetryable");
  expect(classify(r(404), 60).retry).toBe("nonRetryable");
  expect(classify(r(500), 60).retry).toBe("retryable");
  expect(classify(r(501), 60).retry).toBe("nonRetryable");
  expect(classify(r(503), 60).retry).toBe("retryable");
  expect(classify(r(503, { "retry-after": "5" }), 60)).toEqual({
    retry: "throttled",
    retryAfterS: 5,
  });
  expect(classify(r(429), 60)).toEqual({ retry: "throttled", retryAfterS: null });
  expect(classify(r(429, { "retry-after": "3600" }), 60).retry).toBe("nonRetryable");
  expect(classify(r(0, {}, { kind: "connect", detail: "ECONNRESET" }), 60).retry).toBe("retryable");
  expect(classify(r(0, {}, { kind: "connect", detail: "refused: x" }), 60).retry).toBe(
    "nonRetryable",
  );
  expect(classify(r(0, {}, { kind: "connect", detail: "tls: CERT" }), 60).retry).toBe(
    "nonRetryable",
  );
});

test("parseRetryAfter", () => {
  expect(parseRetryAfter("120")).toBe(120);
  expect(parseRetryAfter(null)).toBeNull();
  expect(parseRetryAfter("soon")).toBeNull();
  const now = Date.UTC(2024, 0, 1);
  expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90);
  expect(parseRetryAfter(new Date(now).toUTCString(), now + 5000)).toBe(0);
});
