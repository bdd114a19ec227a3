/** The examples Swagger UI shows are answers the schemas accept. */
import { expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Domain } from "../../../src/schemas/domain.ts";
import { pageListExample } from "../../../src/schemas/examples.ts";
import {
  Applied,
  listSchema,
  Page,
  PageSummary,
  SearchResult,
} from "../../../src/schemas/responses.ts";

const cases: [string, TSchema][] = [
  ["PageSummary", PageSummary],
  ["Page", Page],
  ["SearchResult", SearchResult],
  ["Domain", Domain],
  ["the page list", listSchema(PageSummary, "pages", Applied.content, [pageListExample])],
];

test.each(cases)("%s: its example is valid", (_name, schema) => {
  const examples = (schema as { examples?: unknown[] }).examples ?? [];
  expect(examples.length).toBeGreaterThan(0);
  for (const example of examples) {
    expect([...Value.Errors(schema, example)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  }
});

test("a broken example would be caught", () => {
  const example = (Domain as { examples?: { coverage: object }[] }).examples?.[0];
  const broken = { ...example, coverage: { ...example?.coverage, estimate: 1000 } };
  expect(Value.Check(Domain, broken)).toBe(false);
});
