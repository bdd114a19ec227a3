/**
 * Pages only JavaScript renders, crawled through Debian's Chromium: real client-side apps from
 * npm (React with react-router and JSON content, Vue with vue-router, docsify in history mode)
 * built at test time and served on loopback. With `render: "auto"` every route is found and
 * its text extracted (word F1 against the known text); with `never` the static shells yield
 * nothing. The browser's requests go through the crawler's fetcher: a script's request to
 * another loopback server or a private address is refused and recorded.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { crawler, expectInvariant } from "../helpers/crawl.ts";
import { serveSite } from "../helpers/site.ts";
import { bucketRows, markdownOf } from "./support/ledger.ts";
import type { SpaPage } from "./support/spa/content.ts";
import { SPA_NAMES, type SpaSite, serveSpa } from "./support/spa-sites.ts";
import { wordF1 } from "./support/word-f1.ts";

setDefaultTimeout(180_000);

const knownText = (p: SpaPage) => `${p.title}\n${p.paragraphs.join("\n")}`;

/** The stored text of a known page: its own row, or that of the page it duplicates. */
function extracted(c: ReturnType<typeof crawler>, jobId: string, url: string): string {
  const own = markdownOf(c, url);
  if (own !== null) return own;
  const duplicate = bucketRows(c, jobId, "duplicate").get(url);
  return duplicate?.target ? (markdownOf(c, duplicate.target) ?? "") : "";
}

for (const name of SPA_NAMES) {
  describe(`${name} app`, () => {
    let site: SpaSite;
    beforeAll(async () => {
      site = await serveSpa(name);
    });
    afterAll(async () => {
      await site.stop();
    });

    test("render auto: every route found, its text extracted (F1 ≥ 0.9)", async () => {
      const c = crawler({ CONNECT_TO: site.connectTo() });
      const before = site.hits.length;
      try {
        const view = await c.crawl(site.host, { budget: 30 });
        // The app's bundle is fetched once (twice when the first renders race), not per page.
        const bundles = site.hits.slice(before).filter((h) => h.startsWith("/assets/"));
        expect(bundles.length).toBeLessThanOrEqual(2);
        expectInvariant(view);
        expect(view.state).toBe("completed");
        const render = view.render;
        expect(render?.mode).toBe("auto");
        expect(render?.error).toBeUndefined();
        expect(render?.failed).toEqual([]);
        expect(render?.rendered ?? 0).toBeGreaterThanOrEqual(site.pages.length);
        const indexed = bucketRows(c, view.id, "indexed");
        const duplicate = bucketRows(c, view.id, "duplicate");
        const scores: string[] = [];
        // React's `/` replaces itself with `/home`, which no link names: found by the push.
        for (const page of site.pages) {
          const url = site.url(page.path);
          expect(indexed.has(url) || duplicate.has(url)).toBe(true);
          const f1 = wordF1(extracted(c, view.id, url), knownText(page));
          scores.push(`${page.path} ${f1.toFixed(3)}`);
          expect(f1).toBeGreaterThanOrEqual(0.9);
        }
        console.log(`${name} rendered: ${scores.join(", ")}`);
      } finally {
        c.close();
      }
    });

    test("render never: the static shell has no text and no routes", async () => {
      const c = crawler({ CONNECT_TO: site.connectTo() });
      try {
        const view = await c.crawl(site.host, { budget: 30, render: "never" });
        expectInvariant(view);
        expect(view.render?.mode).toBe("never");
        expect(view.render?.rendered).toBe(0);
        const scores = site.pages.map((p) =>
          wordF1(extracted(c, view.id, site.url(p.path)), knownText(p)),
        );
        console.log(`${name} static: ${scores.map((s) => s.toFixed(3)).join(", ")}`);
        for (const f1 of scores) expect(f1).toBeLessThan(0.2);
        // Only the entry page is known: its links are rendered by the script.
        expect(view.progress.indexed).toBeLessThanOrEqual(1);
      } finally {
        c.close();
      }
    });
  });
}

test("a script's requests to another loopback server and private addresses are refused and recorded", async () => {
  const other = serveSite("other.test", { "/secret": "the other server's secret" });
  const secret = `http://127.0.0.1:${other.port}/secret`;
  const privates = ["http://10.0.0.1/internal", "http://192.168.1.1/router"];
  const script = [secret, ...privates]
    .map((u) => `fetch(${JSON.stringify(u)}).catch(() => {});`)
    .join("");
  const text = "Welcome to the shell app. ".repeat(30);
  const site = serveSite("shell.test", {
    "/logo.png": "png",
    "/": `<!doctype html><html lang="en"><head><title>Shell</title></head><body><div id="root"></div><img src="/logo.png" alt=""><script>${script}document.getElementById("root").innerHTML = "<main><h1>Shell</h1><p>${text}</p></main>";</script></body></html>`,
  });
  const c = crawler({ CONNECT_TO: site.connectTo() });
  try {
    const view = await c.crawl("shell.test", { budget: 5 });
    expectInvariant(view);
    expect(view.render?.rendered).toBe(1);
    const refused = new Map((view.render?.refused ?? []).map((r) => [r.url, r]));
    for (const url of [secret, ...privates]) {
      expect(refused.get(url)?.page).toBe("http://shell.test/");
      expect(refused.get(url)?.reason).toContain("refused by the address policy (SSRF guard)");
    }
    expect(view.render?.refused_total).toBeGreaterThanOrEqual(3);
    expect(other.count("/secret")).toBe(0);
    expect(site.count("/logo.png")).toBe(0); // images are not loaded for a render
    expect(markdownOf(c, "http://shell.test/")).toContain("Welcome to the shell app.");
  } finally {
    c.close();
    await site.stop();
    await other.stop();
  }
});

test("without a browser the crawl keeps the static pages and says why", async () => {
  const site = serveSite("nobrowser.test", {
    "/": `<!doctype html><html><head><title>App</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>`,
    "/app.js": "document.body.append('rendered');",
  });
  const c = crawler({ CONNECT_TO: site.connectTo(), CHROMIUM_PATH: "/nonexistent/chromium" });
  try {
    const view = await c.crawl("nobrowser.test", { budget: 5 });
    expectInvariant(view);
    expect(view.state).toBe("completed");
    expect(view.render?.rendered).toBe(0);
    expect(view.render?.error).toContain("/nonexistent/chromium");
  } finally {
    c.close();
    await site.stop();
  }
});

test("render always renders static pages too, and they read as fetched", async () => {
  const text = "Plain static prose about harbors and lanterns. ".repeat(20);
  const site = serveSite("always.test", {
    "/": `<!doctype html><html lang="en"><head><title>Home</title></head><body><main><h1>Home</h1><p>${text}</p><a href="/b.html">B</a></main></body></html>`,
    "/b.html": `<!doctype html><html lang="en"><head><title>B</title></head><body><main><h1>B</h1><p>${text} B.</p></main></body></html>`,
  });
  const c = crawler({ CONNECT_TO: site.connectTo() });
  try {
    const view = await c.crawl("always.test", { render: "always" });
    expectInvariant(view);
    expect(view.state).toBe("completed");
    expect(view.render).toMatchObject({ mode: "always", rendered: 2, gained: 0, failed: [] });
    expect(view.progress.indexed).toBe(2);
    expect(
      wordF1(markdownOf(c, "http://always.test/b.html") ?? "", `B ${text} B.`),
    ).toBeGreaterThan(0.95);
  } finally {
    c.close();
    await site.stop();
  }
});
