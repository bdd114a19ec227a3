/** The loopback doc sites serve what they claim (test/sites/support/). */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import http from "node:http";
import { gunzipSync } from "node:zlib";
import robotsParser from "robots-parser";
import { type DocServer, serveDocSites } from "./support/doc-server.ts";
import { type DocSite, type DocSites, docSites, siteUrl } from "./support/doc-sites.ts";

// Reading the tree (and, on a fresh machine, fetching the packages) takes more than 5 s.
setDefaultTimeout(600_000);

let sites: DocSites;
let server: DocServer;

beforeAll(() => {
  sites = docSites();
  server = serveDocSites(sites);
});
afterAll(async () => {
  await server?.stop();
});

function get(host: string, path: string, headers: Record<string, string> = {}) {
  return fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: { host, "accept-encoding": "identity", ...headers },
    redirect: "manual",
  });
}

/** The bytes as sent: fetch decompresses gzip bodies, node:http hands them over as they came. */
function raw(host: string, path: string, headers: Record<string, string>) {
  return new Promise<{ headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port: server.port, path, headers: { host, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on("error", reject);
  });
}

test("every site lists its pages from the tree: robots exclusions, languages, home pages", () => {
  const { python, postgres, handbook } = sites;
  expect(python.pages.length).toBeGreaterThan(500);
  expect(python.robotsExcluded.length).toBeGreaterThan(0);
  expect(python.robotsExcluded.every((p) => p.startsWith("/genindex"))).toBe(true);
  expect(postgres.pages.length).toBeGreaterThan(1000);
  expect(postgres.pages).toContain("/");
  expect(postgres.robotsExcluded).toEqual([]);
  expect(handbook.languages.length).toBe(26);
  expect(handbook.pages.length).toBeGreaterThan(3000);
  for (const site of sites.all) {
    expect(new Set(site.pages).size).toBe(site.pages.length);
    expect(site.allowedPages.length + site.robotsExcluded.length).toBe(site.pages.length);
  }
});

test("each host answers; aliases answer 301 to the main host; an unknown host 404", async () => {
  for (const site of sites.all) {
    const home = await get(site.host, "/");
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toStartWith("text/html");
    for (const alias of site.aliases) {
      const moved = await get(alias, "/some/path?x=1");
      expect(moved.status).toBe(301);
      expect(moved.headers.get("location")).toBe(`http://${site.host}/some/path?x=1`);
    }
  }
  expect((await get("unknown.example", "/")).status).toBe(404);
  const pg = await (await get(sites.postgres.host, "/")).text();
  expect(pg).toContain('href="/docs/15/index.html"');
  const root = await (await get(sites.handbook.host, "/")).text();
  for (const lang of sites.handbook.languages)
    expect(root).toContain(`href="/browse/${lang}/stable/"`);
});

test("redirects and directories", async () => {
  const hb = sites.handbook.host;
  const stable = await get(hb, "/browse/stable/");
  expect([stable.status, stable.headers.get("location")]).toEqual([301, "/browse/en-US/stable/"]);
  const de = await get(hb, "/browse/de-DE/stable/");
  expect(de.status).toBe(200);
  expect(await de.text()).toContain('lang="de-DE"');
  const pg = sites.postgres.host;
  const dir = await get(pg, "/docs/15");
  expect([dir.status, dir.headers.get("location")]).toEqual([301, "/docs/15/"]);
  expect((await get(pg, "/docs/15/")).status).toBe(200);
  const lib = await get(sites.python.host, "/library");
  expect([lib.status, lib.headers.get("location")]).toEqual([301, "/library/"]);
  expect((await get(sites.python.host, "/../etc/passwd")).status).toBe(404);
  expect((await get(sites.python.host, "/%2e%2e/%2e%2e/etc/passwd")).status).toBe(404);
});

test.each(["docs.python.org", "www.postgresql.org", "debian-handbook.info"])(
  "robots.txt on %s blocks exactly the pages the site says it excludes",
  async (host) => {
    const site = siteOf(host);
    const resp = await get(host, "/robots.txt");
    expect(resp.status).toBe(200);
    expect(resp.headers.get("content-type")).toStartWith("text/plain");
    const robots = robotsParser(`http://${host}/robots.txt`, await resp.text());
    expect(robots.getSitemaps()).toEqual([`http://${host}/sitemap.xml`]);
    const blocked = site.pages.filter((p) => !robots.isAllowed(siteUrl(site, p), "webcorpus"));
    expect(blocked).toEqual([...site.robotsExcluded]);
  },
);

function siteOf(host: string): DocSite {
  const site = sites.all.find((s) => s.host === host);
  if (!site) throw new Error(`no site ${host}`);
  return site;
}

async function sitemapLocs(site: DocSite): Promise<{ locs: string[]; lastmods: string[] }> {
  const locs: string[] = [];
  const lastmods: string[] = [];
  const todo = ["/sitemap.xml"];
  const seen: string[] = [];
  for (let path = todo.shift(); path !== undefined; path = todo.shift()) {
    seen.push(path);
    const resp = await get(site.host, path);
    expect(resp.status).toBe(200);
    const bytes = new Uint8Array(await resp.arrayBuffer());
    const xml = path.endsWith(".gz")
      ? gunzipSync(bytes).toString()
      : new TextDecoder().decode(bytes);
    const loc = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? "");
    if (xml.includes("<sitemapindex")) {
      todo.push(...loc.map((l) => l.slice(`http://${site.host}`.length)));
    } else {
      expect(xml).toContain("<urlset");
      locs.push(...loc);
      lastmods.push(...[...xml.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((m) => m[1] ?? ""));
    }
  }
  expect(seen).toEqual([...site.sitemaps]);
  return { locs, lastmods };
}

test.each(["docs.python.org", "www.postgresql.org", "debian-handbook.info"])(
  "the sitemaps of %s list every page, each with its file's date, and the pages are served",
  async (host) => {
    const site = siteOf(host);
    const { locs, lastmods } = await sitemapLocs(site);
    expect(locs.toSorted()).toEqual(site.pages.map((p) => siteUrl(site, p)).toSorted());
    expect(lastmods.length).toBe(locs.length);
    for (const m of lastmods) expect(m).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const step = Math.max(1, Math.floor(site.pages.length / 40));
    for (let i = 0; i < site.pages.length; i += step) {
      const path = site.pages[i] ?? "/";
      const resp = await get(host, path);
      expect([path, resp.status]).toEqual([path, 200]);
      expect(resp.headers.get("content-type")).toBe("text/html");
      await resp.arrayBuffer();
    }
  },
);

test("conditional requests and gzip, as nginx answers them", async () => {
  const host = sites.python.host;
  const path = "/library/functions.html";
  const plain = await get(host, path);
  const etag = plain.headers.get("etag") ?? "";
  const modified = plain.headers.get("last-modified") ?? "";
  expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
  expect(new Date(modified).getTime()).toBeGreaterThan(0);
  expect(plain.headers.get("content-encoding")).toBeNull();
  const text = await plain.text();
  expect((await get(host, path, { "if-none-match": etag })).status).toBe(304);
  expect((await get(host, path, { "if-modified-since": modified })).status).toBe(304);
  expect((await get(host, path, { "if-none-match": '"nope"' })).status).toBe(200);
  const older = new Date(new Date(modified).getTime() - 1000).toUTCString();
  expect((await get(host, path, { "if-modified-since": older })).status).toBe(200);
  const zipped = await raw(host, path, { "accept-encoding": "gzip, deflate" });
  expect(zipped.headers["content-encoding"]).toBe("gzip");
  expect(zipped.headers.etag).toBe(`W/${etag}`);
  expect(gunzipSync(zipped.body).toString()).toBe(text);
  expect((await get(host, path, { "if-none-match": `W/${etag}` })).status).toBe(304);
});

test("a broken symlink in the package and a deleted page answer 404; the rest still answers", async () => {
  const host = sites.python.host;
  // python3.11-doc's _static/jquery.js links into libjs-jquery, which is not unpacked.
  expect([200, 404]).toContain((await get(host, "/_static/jquery.js")).status);
  server.remove(host, "/library/os.html");
  try {
    expect((await get(host, "/library/os.html")).status).toBe(404);
    expect((await get(host, "/")).status).toBe(200);
  } finally {
    server.reset();
  }
  expect((await get(host, "/library/os.html")).status).toBe(200);
});

test("a page changed, deleted or added in the overlay; reset restores the package", async () => {
  const host = sites.postgres.host;
  const path = "/docs/15/tutorial.html";
  const before = await get(host, path);
  const original = await before.text();
  const etag = before.headers.get("etag") ?? "";
  try {
    server.write(host, path, "<html><body><p>Changed tutorial</p></body></html>");
    const after = await get(host, path);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain("Changed tutorial");
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((await get(host, path, { "if-none-match": etag })).status).toBe(200);
    const since = before.headers.get("last-modified") ?? "";
    expect((await get(host, path, { "if-modified-since": since })).status).toBe(200);
    server.remove(host, "/docs/15/sql.html");
    expect((await get(host, "/docs/15/sql.html")).status).toBe(404);
    server.write(host, "/docs/15/new-page.html", "<html>new</html>");
    expect((await get(host, "/docs/15/new-page.html")).status).toBe(200);
  } finally {
    server.reset();
  }
  const restored = await get(host, path);
  expect(restored.headers.get("etag")).toBe(etag);
  expect(await restored.text()).toBe(original);
  expect((await get(host, "/docs/15/sql.html")).status).toBe(200);
  expect((await get(host, "/docs/15/new-page.html")).status).toBe(404);
});

test("connect-to rules: port 80 to the server, 443 refused at once", async () => {
  const rules = server.connectTo(["docs.python.org"]).split(",");
  expect(rules).toEqual([
    `docs.python.org:80:127.0.0.1:${server.port}`,
    `docs.python.org:443:127.0.0.1:${server.refusedPort}`,
  ]);
  const refused = await fetch(`http://127.0.0.1:${server.refusedPort}/`).then(
    () => "answered",
    (err: unknown) => String((err as { code?: string }).code ?? err),
  );
  expect(refused).toBe("ECONNREFUSED");
  const all = server.connectTo().split(",");
  expect(all.length).toBe(2 * sites.all.reduce((n, s) => n + 1 + s.aliases.length, 0));
  expect(all.length).toBe(14);
});

test("canonical links point at the served http pages", async () => {
  const py = await (await get(sites.python.host, "/library/os.html")).text();
  expect(py).toContain('<link rel="canonical" href="http://docs.python.org/library/os.html"');
  expect(py).not.toContain("file:///usr/share/doc");
  const fr = await (await get(sites.handbook.host, "/browse/fr-FR/stable/apt.html")).text();
  expect(fr).toContain(
    'rel="canonical" href="http://debian-handbook.info/browse/fr-FR/stable/apt.html"',
  );
});
