/** Page reads over pages stored through the crawler's write path: filters, sorts, one page, markdown. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { makeApp, type TestApp } from "../helpers/app.ts";
import { testJob, writePage } from "../helpers/pages.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

let api: TestApp;
const ids: Record<string, string> = {};
const id = (name: string): string => {
  const value = ids[name];
  if (!value) throw new Error(`no page ${name}`);
  return value;
};

beforeAll(() => {
  api = makeApp();
  const db = api.store.write;
  const job = testJob(db, "acme.test");
  ids.home = writePage(db, job, {
    url: "https://acme.test/",
    title: "Acme",
    facets: {
      type: "homepage",
      format: "landing",
      audience: "business",
      promotional: 0.8,
      words: 300,
    },
  });
  ids.docs = writePage(db, job, {
    url: "https://docs.acme.test/install",
    title: "Install Acme",
    markdown: "# Install\n\n```sh\npip install acme\n```",
    facets: {
      type: "docs",
      format: "tutorial",
      audience: "developers",
      locale: "en-US",
      topics: ["devtools", "databases"],
      technicality: 0.8,
      depth: 0.7,
      hasCode: true,
      words: 1200,
      published: "2026-03-02",
      explain: { type: ["path /install"] },
    },
    assets: [{ url: "https://acme.test/shot.png", kind: "image", alt: "the installer" }],
  });
  ids.blog = writePage(db, job, {
    url: "https://acme.test/blog/hello",
    title: "Hallo Welt",
    facets: {
      type: "blog",
      format: "article",
      locale: "de-AT",
      words: 800,
      published: "2025-12-31",
      originality: 0.4,
    },
    links: [
      {
        targetUrl: "https://docs.acme.test/install",
        targetPageId: "",
        targetHost: "docs.acme.test",
        anchor: "install it",
        position: "body",
        internal: true,
      },
    ],
  });
  // The citation's target id is the install page's id.
  db.$client.run(
    "UPDATE links SET target_page_id = ? WHERE target_url = 'https://docs.acme.test/install'",
    [id("docs")],
  );
  db.$client.run("UPDATE pages SET inlinks_body = 1 WHERE id = ?", [id("docs")]);
  const other = testJob(db, "other.test", "job_00000000000000000099");
  ids.other = writePage(db, other, {
    url: "https://other.test/",
    title: "Other",
    facets: { type: "homepage", words: 50 },
  });
  db.$client.run(
    "INSERT INTO collections(slug, name, description, created_at) VALUES ('tools', 'Tools', '', 'x')",
  );
  db.$client.run(
    "INSERT INTO collection_members(slug, domain, reason, placed_by, placed_at) VALUES ('tools', 'acme.test', 'r', 'person', 'x')",
  );
});
afterAll(() => api.close());

async function listed(params: Record<string, string | number | boolean>) {
  const r = await api.get("/api/content", params);
  expect(r.status).toBe(200);
  return (await r.json()) as {
    data: { id: string }[];
    total: number;
    sort: string;
    filters: { applied: Record<string, unknown> };
  };
}

test.each([
  [{ domain: "acme.test" }, ["docs", "blog", "home"]],
  [{ collection: "tools" }, ["docs", "blog", "home"]],
  [{ type: "docs,blog" }, ["docs", "blog"]],
  [{ format: "article" }, ["blog"]],
  [{ audience: "developers" }, ["docs"]],
  [{ locale: "de" }, ["blog"]],
  [{ locale: "en" }, ["docs", "home", "other"]],
  [{ topics: "databases" }, ["docs"]],
  [{ technicality_min: 0.5 }, ["docs"]],
  [{ depth_min: 0.5 }, ["docs"]],
  [{ originality_min: 0.5 }, ["docs", "home", "other"]],
  [{ promotional_max: 0.5 }, ["docs", "blog", "other"]],
  [{ has_code: true }, ["docs"]],
  [{ has_code: false }, ["blog", "home", "other"]],
  [{ words_min: 500 }, ["docs", "blog"]],
  [{ published_after: "2026-01-01" }, ["docs"]],
  [{ published_after: "2025-12-31T12:00:00Z" }, ["docs", "blog"]],
])("%j narrows to exactly %j and echoes itself", async (params, expected) => {
  const body = await listed(params);
  const want = expected.map(id).sort();
  expect(body.data.map((p) => p.id).sort()).toEqual(want);
  expect(body.total).toBe(expected.length);
  expect(Object.keys(body.filters.applied)).toEqual(Object.keys(params));
});

test("sorts: cited first by default, then each facet in its direction, ties on id", async () => {
  expect((await listed({})).data[0]?.id).toBe(id("docs"));
  expect((await listed({})).sort).toBe("cited");
  expect((await listed({ sort: "words" })).data.map((p) => p.id)).toEqual([
    id("docs"),
    id("blog"),
    id("home"),
    id("other"),
  ]);
  expect((await listed({ sort: "published" })).data.slice(0, 2).map((p) => p.id)).toEqual([
    id("docs"),
    id("blog"),
  ]);
  expect((await listed({ sort: "promotional" })).data.at(-1)?.id).toBe(id("home"));
  const page1 = await listed({ sort: "words", limit: 2 });
  const page2 = await listed({ sort: "words", limit: 2, offset: 2 });
  expect([...page1.data, ...page2.data].map((p) => p.id)).toEqual([
    id("docs"),
    id("blog"),
    id("home"),
    id("other"),
  ]);
  expect(page2.total).toBe(4);
});

test("one page: facets, metrics, assets, history, cited_by, collections; markdown=false; explain", async () => {
  const page = (await (await api.get(`/api/content/${id("docs")}`)).json()) as Record<
    string,
    unknown
  >;
  expect(page).toMatchObject({
    id: id("docs"),
    url: "https://docs.acme.test/install",
    domain: "acme.test",
    collections: ["tools"],
    facets: {
      type: "docs",
      locale: "en-US",
      topics: ["devtools", "databases"],
      technicality: 0.8,
      has_code: true,
      published: "2026-03-02",
    },
    metrics: { inlinks_body: 1 },
    markdown: "# Install\n\n```sh\npip install acme\n```",
    assets: [{ url: "https://acme.test/shot.png", kind: "image", alt: "the installer" }],
    cited_by: [
      {
        id: id("blog"),
        url: "https://acme.test/blog/hello",
        title: "Hallo Welt",
        anchor_text: "install it",
      },
    ],
  });
  expect((page.history as unknown[]).length).toBe(1);
  expect(page.explain).toBeUndefined();
  const bare = (await (
    await api.get(`/api/content/${id("docs").slice(3)}`, { markdown: false, explain: true })
  ).json()) as Record<string, unknown>;
  expect(bare.markdown).toBeUndefined();
  expect(bare.explain).toEqual({ type: ["path /install"] });
});

test("a page as markdown keeps its frontmatter", async () => {
  const r = await api.get(`/api/content/${id("docs")}.md`);
  expect(r.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  const text = await r.text();
  const front = Bun.YAML.parse(text.split("---\n")[1] ?? "") as Record<string, unknown>;
  expect(front).toMatchObject({
    id: id("docs"),
    url: "https://docs.acme.test/install",
    domain: "acme.test",
    type: "docs",
    words: 1200,
  });
  expect(text).toEndWith("```sh\npip install acme\n```\n");
});

test("facet counts within a scope", async () => {
  const body = (await (await api.get("/api/facets", { domain: "acme.test" })).json()) as {
    pages: number;
    data: { facet: string; values?: { value: unknown; pages: number }[] }[];
  };
  expect(body.pages).toBe(3);
  const type = body.data.find((f) => f.facet === "type");
  expect(type?.values?.find((v) => v.value === "homepage")?.pages).toBe(1);
  expect(type?.values?.length).toBe(20);
  const locale = body.data.find((f) => f.facet === "locale");
  expect(locale?.values?.map((v) => v.value).sort()).toEqual(["de-AT", "en", "en-US"]);
});
