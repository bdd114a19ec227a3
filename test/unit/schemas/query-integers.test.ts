/** Every integer query parameter is read as decimal digits only (src/server/query.ts). */
import { expect, test } from "bun:test";
import type { TObject, TSchema } from "@sinclair/typebox";
import { testConfig } from "../../../src/config.ts";
import { fieldName } from "../../../src/schemas/fields.ts";
import {
  bundleQuery,
  contentQuery,
  jobsQuery,
  jobUrlsQuery,
  searchQuery,
} from "../../../src/schemas/params.ts";
import { INTEGER_PARAMS } from "../../../src/server/query.ts";

const isInteger = (schema: TSchema): boolean =>
  schema.type === "integer" ||
  (Array.isArray(schema.anyOf) && schema.anyOf.some((s: TSchema) => s.type === "integer"));

test("INTEGER_PARAMS names every integer query parameter, and nothing else", () => {
  const config = testConfig({});
  const schemas: TObject[] = [
    contentQuery(config),
    searchQuery(config),
    bundleQuery(config),
    jobsQuery,
    jobUrlsQuery,
  ];
  const names = new Set<string>();
  for (const schema of schemas) {
    for (const property of Object.values(schema.properties)) {
      const name = fieldName(property)?.name;
      if (name && isInteger(property)) names.add(name);
    }
  }
  expect([...names].sort()).toEqual([...INTEGER_PARAMS].sort());
});
