import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { testConfig } from "../../src/config.ts";
import { Fetcher, fetcherOptions } from "../../src/crawl/fetcher.ts";
import type { Resolver } from "../../src/crawl/guard.ts";
import { type HostileSite, startHostileSite } from "./support/hostile-site.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

const TLS_DIR = join(import.meta.dir, "../fixtures/tls");
const read = (name: string) => Bun.file(join(TLS_DIR, name)).text();

let site: HostileSite | null = null;
const servers: { stop(force?: boolean): unknown }[] = [];
afterEach(async () => {
  await site?.stop();
  site = null;
  for (const s of servers.splice(0)) await s.stop(true);
});

const fetcherFor = (settings: Record<string, string>, resolver?: Resolver, ca?: string) =>
  new Fetcher(
    fetcherOptions(
      testConfig({ MAX_RETRIES: "0", CONNECT_TIMEOUT_S: "2", READ_TIMEOUT_S: "2", ...settings }),
      { ...(resolver ? { resolver } : {}), ...(ca ? { ca } : {}) },
    ),
  );

const text = (body: Uint8Array) => new TextDecoder().decode(body);

/** Answers differently on each call: the first answer, then the second, repeated. */
function rebinding(first: string, then: string): Resolver & { calls: number } {
  const r = Object.assign(
    async () => {
      r.calls++;
      return [{ address: r.calls === 1 ? first : then, family: 4 as const }];
    },
    { calls: 0 },
  );
  return r;
}

test("loopback in every spelling is refused without an allowlist", async () => {
  site = await startHostileSite();
  const f = fetcherFor({});
  const p = site.port;
  for (const url of [
    `http://127.0.0.1:${p}/ok`,
    `http://localhost:${p}/ok`,
    `http://2130706433:${p}/ok`,
    `http://0x7f.1:${p}/ok`,
    `http://0177.0.0.1:${p}/ok`,
    `http://[::1]:${p}/ok`,
    `http://[::ffff:127.0.0.1]:${p}/ok`,
  ]) {
    const res = await f.fetch(url);
    expect([url, res.error?.kind, res.status]).toEqual([url, "ssrf", 0]);
  }
  expect(site.hits).toEqual([]);
});

test("the allowlist lets loopback through, in odd spellings too", async () => {
  site = await startHostileSite();
  const f = fetcherFor({ ALLOW_NETWORKS: "127.0.0.0/8" });
  for (const host of ["127.0.0.1", "2130706433", "0x7f.1"]) {
    const res = await f.fetch(`http://${host}:${site.port}/echo`);
    expect(res.status).toBe(200);
    expect(JSON.parse(text(res.body)).host).toBe(`127.0.0.1:${site.port}`);
  }
});

test("a connect-to rule maps a name; the Host header keeps the name; the rule is no allowlist", async () => {
  site = await startHostileSite();
  const f = fetcherFor({ CONNECT_TO: `example.test:80:127.0.0.1:${site.port}` });
  const res = await f.fetch("http://example.test/echo");
  expect(res.status).toBe(200);
  expect(JSON.parse(text(res.body)).host).toBe("example.test");
  expect((await f.fetch(`http://127.0.0.1:${site.port}/ok`)).error?.kind).toBe("ssrf");
});

test("with an allowlist, a connect-to target outside it is refused and never reached", async () => {
  site = await startHostileSite();
  const f = fetcherFor({
    ALLOW_NETWORKS: "127.0.0.1/32",
    CONNECT_TO: `site.test:80:127.0.0.1:${site.port},internal.test:80:127.0.0.2:${site.port}`,
  });
  expect((await f.fetch("http://site.test/ok")).status).toBe(200);
  const res = await f.fetch("http://internal.test/ssrf-target");
  expect([res.error?.kind, res.status]).toEqual(["ssrf", 0]);
  expect(site.ssrfHits).toEqual([]);
});

test("DNS rebinding: each request resolves once and connects to the address it checked", async () => {
  site = await startHostileSite();
  const resolver = rebinding("127.0.0.1", "127.0.0.2");
  const f = fetcherFor({ ALLOW_NETWORKS: "127.0.0.1/32" }, resolver);
  const first = await f.fetch(`http://rebind.example:${site.port}/echo`);
  expect(first.status).toBe(200);
  expect(first.address).toBe("127.0.0.1");
  expect(JSON.parse(text(first.body)).host).toBe(`rebind.example:${site.port}`);
  expect(resolver.calls).toBe(1);
  const second = await f.fetch(`http://rebind.example:${site.port}/ssrf-target`);
  expect(second.error?.kind).toBe("ssrf");
  expect(second.error?.detail).toContain("127.0.0.2");
  expect(resolver.calls).toBe(2);
  expect(site.ssrfHits).toEqual([]);
});

test("redirects to loopback, to an internal name and to file: are refused at their hop", async () => {
  site = await startHostileSite();
  const f = fetcherFor({
    CONNECT_TO: `hostile.example:80:127.0.0.1:${site.port},internal.hostile.example:80:127.0.0.2:${site.port}`,
    ALLOW_NETWORKS: "127.0.0.1/32",
  });
  // The allowlist admits 127.0.0.1 itself, so the loopback hop needs a fetcher without it:
  const strict = fetcherFor({ CONNECT_TO: `hostile.example:80:127.0.0.1:${site.port}` });
  const loop = await strict.fetchFollowing("http://hostile.example/redirect/to-loopback");
  expect(loop.error?.kind).toBe("ssrf");
  expect(loop.redirects.map((h) => h.location)).toEqual([
    `http://127.0.0.1:${site.port}/ssrf-target`,
  ]);
  const internal = await f.fetchFollowing("http://hostile.example/redirect/to-internal");
  expect(internal.error?.kind).toBe("ssrf");
  expect(internal.url).toBe("http://internal.hostile.example/ssrf-target");
  const file = await f.fetchFollowing("http://hostile.example/redirect/to-file");
  expect(file.error?.kind).toBe("bad_scheme");
  expect(site.ssrfHits).toEqual([]);
  expect(site.hits.some((h) => h.path === "/ssrf-target")).toBe(false);
});

test("TLS to the checked address: SNI and the certificate are checked against the name", async () => {
  const [cert, key, otherCert, otherKey] = await Promise.all(
    ["site-cert.pem", "site-key.pem", "other-cert.pem", "other-key.pem"].map(read),
  );
  const tls = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: [
      { serverName: "site.test", cert, key },
      { serverName: "other.test", cert: otherCert, key: otherKey },
    ],
    fetch: (req) => new Response(`host=${req.headers.get("host")}`),
  });
  servers.push(tls);
  const rules = `site.test:443:127.0.0.1:${tls.port},other.test:443:127.0.0.1:${tls.port},wrong.test:443:127.0.0.1:${tls.port}`;
  const f = fetcherFor({ CONNECT_TO: rules }, undefined, `${cert}\n${otherCert}`);
  const site1 = await f.fetch("https://site.test/");
  expect([site1.status, text(site1.body)]).toEqual([200, "host=site.test"]);
  const other = await f.fetch("https://other.test/"); // SNI picked the other certificate
  expect([other.status, text(other.body)]).toEqual([200, "host=other.test"]);
  const wrong = await f.fetch("https://wrong.test/"); // no certificate names it
  expect(wrong.error?.kind).toBe("connect");
  expect(wrong.error?.detail).toStartWith("tls:");
  const untrusted = fetcherFor({ CONNECT_TO: rules }); // system CAs only
  expect((await untrusted.fetch("https://site.test/")).error?.detail).toStartWith("tls:");
});
