/**
 * A page read over HTTP (`pageJson`: serialised by hand in the schema's field order, the body
 * quoted by SQLite) is byte for byte the page object of the service (`pageView`, the MCP tool's)
 * serialised in the contract's field order, on a page with every list filled and a body full of
 * characters JSON must escape.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Page } from "../../src/schemas/responses.ts";
import { pageView } from "../../src/services/content-service.ts";
import { pageIdFor as pageIdOf } from "../../src/services/ids.ts";
import { makeApp, type TestApp } from "../helpers/app.ts";
import { testJob, writePage } from "../helpers/pages.ts";

setDefaultTimeout(60_000);

let api: TestApp;
let target = "";

const controls = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join("");
const BODY = `# Quotes "and" \\backslashes\\\n\nControls: ${controls}\x7f; Unicode: é ß 漢字 \u2028 \u2029 \ufeff 😀; lone \ud800 surrogate; </script>`;

beforeAll(() => {
  api = makeApp();
  const db = api.store.write;
  const job = testJob(db, "acme.test");
  target = writePage(db, job, {
    url: "https://acme.test/docs/target",
    title: 'Target "page" ✓',
    description: "A description\twith a tab",
    markdown: BODY,
    hreflang: [
      ["de", "https://acme.test/de/docs/target"],
      ["fr-CA", 'https://acme.test/fr/docs/target?q="x"'],
    ],
    facets: {
      type: "docs",
      topics: ["devtools", "databases"],
      technicality: 0.8123,
      depth: 1,
      hasCode: true,
      words: 1234,
      published: "2026-03-02",
      explain: { type: ["path /docs/"], has_code: ["2 code blocks", "ünïcode"] },
    },
    assets: [
      { url: "https://acme.test/z.png", kind: "image", alt: 'last "one"' },
      { url: "https://acme.test/a.png", kind: "image", alt: "" },
      { url: "https://acme.test/m.pdf", kind: "document", alt: "Zoë's manual" },
    ],
  });
  // Citing pages: several anchors from one page (the least is shown), one template link left out.
  const citing = (path: string, anchors: string[]) =>
    writePage(db, job, {
      url: `https://acme.test/${path}`,
      title: path === "b" ? null : `Page ${path}`,
      links: anchors.map((anchor, i) => ({
        targetUrl: `https://acme.test/docs/target${i === 0 ? "" : `#s${i}`}`,
        targetPageId: target,
        targetHost: "acme.test",
        anchor,
        position: "body" as const,
        internal: true,
      })),
    });
  citing("c", ["Zeta", "été", 'Alpha "quoted"']);
  citing("b", ["target"]);
  citing("a", ["nav"]);
  citing("d", ["über", "Über"]);
  db.$client.run(
    "INSERT INTO template_links(domain, target_url, anchor) VALUES ('acme.test', 'https://acme.test/docs/target', 'nav')",
  );
  db.$client.run(
    `INSERT INTO page_history(page_id, job_id, fetched_at, status, content_hash, changed)
     VALUES (?1, NULL, '2026-11-03T10:00:00Z', 304, NULL, 0), (?1, ?2, '2026-11-04T10:00:00Z', 200, 'h"2', 1)`,
    [target, job],
  );
  db.$client.run(
    "INSERT INTO screenshots(page_id, width, height, taken_at, job_id, png) VALUES (?1, 1280, 800, '2026-11-04T10:00:01Z', ?2, x'89504e47')",
    [target, job],
  );
  for (const slug of ["tools", "b-list", "zz"]) {
    db.$client.run(
      "INSERT INTO collections(slug, name, description, created_at) VALUES (?1, ?1, '', 'x')",
      [slug],
    );
    db.$client.run(
      "INSERT INTO collection_members(slug, domain, reason, placed_by, placed_at) VALUES (?1, 'acme.test', 'r', 'person', 'x')",
      [slug],
    );
  }
});
afterAll(() => api.close());

/** The service's page object with its fields in the order of the response schema. */
function expected(options: Options): string {
  const view = pageView(api.store.read, target, options) as Record<string, unknown>;
  const ordered = Object.keys(Page.properties)
    .filter((key) => key in view)
    .map((key) => [key, view[key]]);
  expect(ordered.length).toBe(Object.keys(view).length);
  return JSON.stringify(Object.fromEntries(ordered));
}

type Options = { markdown?: boolean; explain?: boolean };

test.each<[string, Options]>([
  ["", {}],
  ["?markdown=false", { markdown: false }],
  ["?explain=true", { explain: true }],
  ["?markdown=false&explain=true", { markdown: false, explain: true }],
])("GET /api/content/{id}%s is the page object, byte for byte", async (query, options) => {
  const r = await api.request("GET", `/api/content/${target}${query}`);
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toBe("application/json;charset=utf-8");
  expect(r.headers.get("x-webcorpus-version")).toBeTruthy();
  const text = await r.text();
  expect(text).toBe(expected(options));
  const page = JSON.parse(text) as {
    markdown?: string;
    cited_by: { url: string; anchor_text: string }[];
    history: { changed: boolean }[];
    collections: string[];
    assets: { url: string }[];
  };
  if (options.markdown !== false) expect(page.markdown).toBe(BODY.replace("\ud800", "\ufffd"));
  else expect("markdown" in page).toBe(false);
  expect(page.cited_by.map((c) => [c.url, c.anchor_text])).toEqual(
    [
      ["https://acme.test/b", "target"],
      ["https://acme.test/c", 'Alpha "quoted"'],
      ["https://acme.test/d", "Über"],
    ].sort((x, y) => {
      const ix = pageIdOf(x[0] ?? "");
      const iy = pageIdOf(y[0] ?? "");
      return ix < iy ? -1 : 1;
    }),
  );
  expect(page.history.map((h) => h.changed)).toEqual([true, false, true]);
  expect(page.collections).toEqual(["b-list", "tools", "zz"]);
  expect(page.assets.map((a) => a.url)).toEqual([
    "https://acme.test/a.png",
    "https://acme.test/m.pdf",
    "https://acme.test/z.png",
  ]);
});

test("a missing page and a page id in upper case", async () => {
  const missing = await api.request("GET", "/api/content/pg_0123456789abcdef");
  expect(missing.status).toBe(404);
  expect(missing.headers.get("content-type")).toBe("application/problem+json");
  const upper = await api.request(
    "GET",
    `/api/content/${target.toUpperCase().replace("PG_", "pg_")}`,
  );
  expect(upper.status).toBe(200);
  expect(await upper.text()).toBe(expected({}));
});

test("a kept answer follows every write: the writer's, another connection's", async () => {
  const title = async () => {
    const r = await api.request("GET", `/api/content/${target}`);
    return (JSON.parse(await r.text()) as { title: string }).title;
  };
  const markdownTitle = async () =>
    (await (await api.request("GET", `/api/content/${target}.md`)).text()).split("\n")[4];
  const before = await title();
  expect(await title()).toBe(before);
  api.store.write.$client.run("UPDATE pages SET title = 'Renamed' WHERE id = ?1", [target]);
  expect(await title()).toBe("Renamed");
  expect(await markdownTitle()).toBe("title: Renamed");
  const other = new Database(api.config.databasePath);
  try {
    other.run("UPDATE pages SET title = 'From elsewhere' WHERE id = ?1", [target]);
  } finally {
    other.close();
  }
  expect(await title()).toBe("From elsewhere");
  expect(await markdownTitle()).toBe("title: From elsewhere");
  api.store.write.$client.run("UPDATE pages SET title = ?2 WHERE id = ?1", [target, before]);
  expect(await title()).toBe(before);
});
