/** Shelves over the API and from the shell: create, place with a reason, read, remove. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { expectProblem, makeApp, type TestApp } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";

// Real servers, processes and crawls: more than bun's default 5 s (bunfig.toml has no timeout key).
setDefaultTimeout(60_000);

let api: TestApp;
beforeAll(() => {
  api = makeApp();
});
afterAll(() => api.close());

const json = (body: unknown) => ({
  body: JSON.stringify(body),
  headers: { ...api.auth, "content-type": "application/json" },
});

test("a shelf is made, filled, read and emptied", async () => {
  const created = await api.request(
    "PUT",
    "/api/collections/Dev-Tools",
    json({ name: "Developer tools", description: "APIs" }),
  );
  expect(created.status).toBe(201);
  expect(await created.json()).toMatchObject({
    slug: "dev-tools",
    name: "Developer tools",
    companies: 0,
    crawled: 0,
    members: [],
  });
  expect(
    (await api.request("PUT", "/api/collections/dev-tools", json({ name: "Dev tools" }))).status,
  ).toBe(200);

  const placed = await api.request(
    "POST",
    "/api/collections/dev-tools/members",
    json({ domain: "docs.python.org", reason: "language docs", placed_by: "agent" }),
  );
  expect(placed.status).toBe(201);
  expect(await placed.json()).toMatchObject({
    domain: "python.org",
    reason: "language docs",
    placed_by: "agent",
    crawled: false,
    pages: 0,
  });
  const moved = await api.request(
    "POST",
    "/api/collections/dev-tools/members",
    json({ domain: "python.org", reason: "docs" }),
  );
  expect(moved.status).toBe(200);
  expect(await moved.json()).toMatchObject({ placed_by: "person", reason: "docs" });

  const list = (await (await api.get("/api/collections", { nope: 1 })).json()) as Record<
    string,
    unknown
  >;
  expect(list).toMatchObject({
    data: [{ slug: "dev-tools", name: "Dev tools", companies: 1, crawled: 0 }],
    total: 1,
    filters: { applied: {}, unrecognized: ["nope"] },
  });
  const shelf = (await (await api.get("/api/collections/DEV-TOOLS")).json()) as {
    members: { domain: string }[];
  };
  expect(shelf.members.map((m) => m.domain)).toEqual(["python.org"]);

  const removed = await api.request("DELETE", "/api/collections/dev-tools/members/python.org", {
    headers: api.auth,
  });
  expect(removed.status).toBe(204);
  await expectProblem(
    await api.request("DELETE", "/api/collections/dev-tools/members/python.org", {
      headers: api.auth,
    }),
    404,
    "not_found",
  );
});

const CONTROL = "must not contain tabs, newlines or control characters";

test.each([
  [{ name: "" }, "name", "must not be empty"],
  [{ name: "  " }, "name", "must not be empty"],
  [{ name: "a\u0000b" }, "name", CONTROL],
  [{ name: "a\tb" }, "name", CONTROL],
  [{ name: "a\nb" }, "name", CONTROL],
  [{ name: "\u001b[31mred" }, "name", CONTROL],
  [{ name: "a\u0085b" }, "name", CONTROL],
  [{ name: "a\u2028b" }, "name", CONTROL],
  [{ name: "a\u200bb" }, "name", CONTROL],
  [{ name: "X", description: "a\u0000b" }, "description", CONTROL],
  [{ name: "X", description: "two\nlines" }, "description", CONTROL],
  [{ name: "X", description: "\u0007bell" }, "description", CONTROL],
])("shelf body %j is a 400: %s %s", async (body, field, message) => {
  const problem = await expectProblem(
    await api.request("PUT", "/api/collections/controls", json(body)),
    400,
    "invalid_body",
  );
  expect(problem.detail).toBe(`${field}: ${message}`);
  expect(problem.errors).toEqual([{ field, message }]);
  expect((await api.get("/api/collections/controls")).status).toBe(404);
});

test("a shelf name and description of any script and emoji are kept as given", async () => {
  const body = { name: "Outils de dév ✓ 開発", description: "Family 👨‍👩‍👧 — tools" };
  const r = await api.request("PUT", "/api/collections/unicode", json(body));
  expect(r.status).toBe(201);
  expect(await (await api.get("/api/collections/unicode")).json()).toMatchObject(body);
});

test("bad shelf writes are 4xx problems that name the field", async () => {
  await expectProblem(
    await api.request("PUT", "/api/collections/x", json({})),
    400,
    "invalid_body",
  );
  const blank = await expectProblem(
    await api.request("PUT", "/api/collections/x", json({ name: "  " })),
    400,
    "invalid_body",
  );
  expect(blank.detail).toContain("name");
  const extra = await expectProblem(
    await api.request("PUT", "/api/collections/x", json({ name: "X", colour: "red" })),
    400,
    "invalid_body",
  );
  expect(extra.detail).toContain("colour");
  await expectProblem(
    await api.request("PUT", "/api/collections/-bad", json({ name: "X" })),
    400,
    "invalid_parameter",
  );
  await expectProblem(
    await api.request("POST", "/api/collections/none/members", json({ domain: "python.org" })),
    404,
    "not_found",
  );
  await api.request("PUT", "/api/collections/x", json({ name: "X" }));
  const ip = await expectProblem(
    await api.request("POST", "/api/collections/x/members", json({ domain: "10.0.0.1" })),
    400,
    "invalid_body",
  );
  expect(ip.errors?.[0]?.field).toBe("domain");
  const by = await expectProblem(
    await api.request(
      "POST",
      "/api/collections/x/members",
      json({ domain: "a.org", placed_by: "robot" }),
    ),
    400,
    "invalid_body",
  );
  expect(by.detail).toContain("placed_by");
});

test("shelves from the shell", async () => {
  const env = { WEBCORPUS_DATA_DIR: api.dataDir, WEBCORPUS_ALLOW_PRIVATE_SUFFIXES: "true" };
  expect((await runCli(["shelves", "put", "fintech", "--name", "Fintech"], env)).code).toBe(0);
  expect(
    (
      await runCli(
        ["shelves", "add", "fintech", "stripe.com", "adyen.com", "--reason", "payments"],
        env,
      )
    ).code,
  ).toBe(0);
  const shown = await runCli(["shelves", "show", "fintech", "--json"], env);
  expect(JSON.parse(shown.stdout)).toMatchObject({
    slug: "fintech",
    companies: 2,
    members: [{ domain: "adyen.com" }, { domain: "stripe.com" }],
  });
  const listed = await runCli(["shelves", "list"], env);
  expect(listed.stdout).toContain("fintech\tFintech\t2 companies\t0 crawled");
  expect((await runCli(["shelves", "put", "solo", "--name", "Solo"], env)).code).toBe(0);
  expect((await runCli(["shelves", "add", "solo", "stripe.com"], env)).code).toBe(0);
  expect((await runCli(["shelves", "list"], env)).stdout).toContain(
    "solo\tSolo\t1 company\t0 crawled",
  );
  expect((await runCli(["shelves", "show", "solo"], env)).stdout).toContain(
    "stripe.com\tperson\t0 pages",
  );
  const crawl = await runCli(["shelves", "crawl", "fintech", "--budget", "5"], env);
  expect(
    crawl.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t")[1]),
  ).toEqual(["adyen.com", "stripe.com"]);
  expect((await runCli(["shelves", "remove", "fintech", "adyen.com"], env)).code).toBe(0);
  const bad = await runCli(["shelves", "add", "fintech", "localhost"], env);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("single label");
});

test("a collection filter naming no shelf is a 404 that lists the shelves, or says how to make one", async () => {
  const empty = makeApp();
  try {
    // Search needs an index here: the 404 comes before the search itself.
    await empty.attachSearch();
    for (const path of ["/api/content", "/api/facets", "/api/search"]) {
      const params: Record<string, string> =
        path === "/api/search" ? { q: "x", collection: "nope" } : { collection: "nope" };
      const none = await expectProblem(await empty.get(path, params), 404, "not_found");
      expect(none.detail).toContain("collection nope not found");
      expect(none.detail).toContain("no shelves yet");
      expect(none.detail).toContain("webcorpus shelves put");
    }
    for (const slug of ["zeta", "alpha"])
      await empty.request("PUT", `/api/collections/${slug}`, {
        body: JSON.stringify({ name: slug }),
        headers: { ...empty.auth, "content-type": "application/json" },
      });
    for (const path of ["/api/content", "/api/facets", "/api/search"]) {
      const params: Record<string, string> =
        path === "/api/search" ? { q: "x", collection: "nope" } : { collection: "nope" };
      const some = await expectProblem(await empty.get(path, params), 404, "not_found");
      expect(some.detail).toBe("collection nope not found: there are 2 shelves: alpha, zeta");
      expect(some.errors).toEqual([
        { param: "collection", message: "no shelf nope; there are 2 shelves: alpha, zeta" },
      ]);
      const known = await empty.get(path, { ...params, collection: "alpha" });
      expect(known.status).toBe(200);
    }
    const doc = (await (await empty.get("/api/openapi.json")).json()) as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    for (const path of ["/api/content", "/api/facets", "/api/search"])
      expect(Object.keys(doc.paths[path]?.get.responses ?? {})).toContain("404");
  } finally {
    empty.close();
  }
});
