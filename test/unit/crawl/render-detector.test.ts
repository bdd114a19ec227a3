import { describe, expect, test } from "bun:test";
import {
  gained,
  pageSignals,
  type RenderHistory,
  renderCandidate,
  renderVerdict,
} from "../../../src/crawl/render/detector.ts";

const fresh = (): RenderHistory => ({ pages: 0, thin: 0, rendered: 0, gained: 0 });
const html = (body: string) =>
  `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
const bytes = (s: string) => new TextEncoder().encode(s);

describe("pageSignals", () => {
  test("an empty mount point of a framework is an app shell", () => {
    for (const [body, shell] of [
      [`<div id="root"></div><script src="/app.js"></script>`, "#root"],
      [`<div id="app">\n  <!-- mounted here -->\n</div><script src="/a.js"></script>`, "#app"],
      [`<div id="__next"></div><script>1</script>`, "#__next"],
      [`<div id='app'>Loading…</div><script src="/a.js"></script>`, "#app"],
      [`<app-root></app-root><script src="/main.js"></script>`, "<app-root>"],
    ] as const)
      expect(pageSignals(html(body), 0).shell).toBe(shell);
  });

  test("a mount point with content, or another id, is no shell", () => {
    expect(pageSignals(html(`<div id="root"><p>Hello there</p></div>`), 2).shell).toBeNull();
    expect(pageSignals(html(`<div id="rooted"></div>`), 0).shell).toBeNull();
    expect(pageSignals(html(`<div class="app"></div>`), 0).shell).toBeNull();
  });

  test("scripts are counted by kind: JSON data blocks are not scripts", () => {
    const s = pageSignals(
      html(
        `<script src="/a.js"></script><script type="module">import "/b.js";</script>` +
          `<script type="application/ld+json">{"@type":"Article"}</script>` +
          `<script type="application/json" id="__NEXT_DATA__">{}</script>`,
      ),
      0,
    );
    expect(s.scripts).toBe(2);
    expect(s.scriptBytes).toBe(30_000 + 'import "/b.js";'.length);
  });
});

describe("renderVerdict", () => {
  const shell = pageSignals(html(`<div id="root"></div><script src="/app.js"></script>`), 3);

  test("an app shell is rendered; a page without scripts never is", () => {
    expect(renderVerdict(shell, fresh())).toEqual({
      render: true,
      reason: "app shell: empty #root, 1 scripts",
    });
    const bare = pageSignals(html(`<div id="root"></div>`), 0);
    expect(renderVerdict(bare, fresh()).render).toBe(false);
  });

  test("text enough is taken as it is, shell or not", () => {
    expect(renderVerdict({ ...shell, words: 400 }, fresh()).render).toBe(false);
  });

  test("a thin page heavy with script: rendered on an unknown site, not on a static one", () => {
    const thin = pageSignals(html(`<p>Hi</p><script src="/a.js"></script>`), 5);
    expect(renderVerdict(thin, fresh()).render).toBe(true);
    const staticSite = { pages: 100, thin: 3, rendered: 0, gained: 0 };
    expect(renderVerdict(thin, staticSite)).toEqual({
      render: false,
      reason: "5 words against 30 kB of script, but most pages of the site are static",
    });
    // …unless earlier pages of the site gained by rendering.
    expect(renderVerdict(thin, { ...staticSite, rendered: 2, gained: 2 }).render).toBe(true);
  });

  test("a page of a few dozen words is rendered only once earlier pages needed it", () => {
    const few = pageSignals(html(`<p>Forty words or so</p><script src="/a.js"></script>`), 40);
    expect(renderVerdict(few, fresh())).toEqual({
      render: false,
      reason: "40 words against 30 kB of script, and no page needed it yet",
    });
    expect(renderVerdict(few, { pages: 3, thin: 3, rendered: 1, gained: 1 }).render).toBe(true);
  });

  test("a thin page whose text outweighs its scripts is not rendered", () => {
    const light = pageSignals(html(`<p>Short note</p><script>track()</script>`), 40);
    expect(renderVerdict(light, fresh()).render).toBe(false);
  });

  test("renders that gained nothing stop auto for the job", () => {
    const fruitless = { pages: 10, thin: 10, rendered: 5, gained: 0 };
    expect(renderVerdict(shell, fruitless)).toEqual({
      render: false,
      reason: "5 renders gained nothing",
    });
  });
});

describe("renderCandidate (the worker's check)", () => {
  const shellPage = bytes(html(`<div id="app"></div><script src="/app.js"></script>`));

  test("never: nothing; auto: thin pages with scripts only; always: every page", () => {
    expect(renderCandidate("never", shellPage, 0)).toBeNull();
    expect(renderCandidate("auto", shellPage, 0)?.signals.shell).toBe("#app");
    expect(renderCandidate("auto", shellPage, 500)).toBeNull();
    expect(renderCandidate("auto", bytes(html("<p>no scripts</p>")), 2)).toBeNull();
    const always = renderCandidate("always", bytes(html("<p>static</p>")), 500);
    expect(always?.body.length).toBeGreaterThan(0);
  });
});

test("a render gained when the text grew by half and 20 words", () => {
  expect(gained(0, 20)).toBe(true);
  expect(gained(0, 19)).toBe(false);
  expect(gained(100, 170)).toBe(true);
  expect(gained(100, 160)).toBe(false);
});
