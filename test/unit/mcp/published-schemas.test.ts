/**
 * The schemas tools/list publishes (src/mcp/published-schemas.ts), checked with the validator the
 * MCP TypeScript SDK's client uses: it validates every result's structured content against the
 * tool's output schema, a tool error's problem document included.
 */
import { expect, test } from "bun:test";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { testConfig } from "../../../src/config.ts";
import { publishedInput, publishedOutput } from "../../../src/mcp/published-schemas.ts";
import { OUTPUT_FIELDS, toolSchemas } from "../../../src/mcp/tool-schemas.ts";

const { args, results } = toolSchemas(testConfig());
const validator = new AjvJsonSchemaValidator();
const names = Object.keys(OUTPUT_FIELDS) as (keyof typeof OUTPUT_FIELDS)[];

const problem = {
  type: "urn:webcorpus:error:not_found",
  title: "Not Found",
  status: 404,
  detail: "page pg_0000000000000000 not found",
  code: "not_found",
  errors: [{ param: "page_id", message: "is unknown" }],
};

test.each(names)("%s: a tool error's problem document passes its output schema", (name) => {
  const check = validator.getValidator(publishedOutput(results[name], OUTPUT_FIELDS[name]));
  expect(check(problem)).toMatchObject({ valid: true });
});

test.each(names)("%s: a named field of the wrong type fails its output schema", (name) => {
  const schema = publishedOutput(results[name], OUTPUT_FIELDS[name]);
  const field = OUTPUT_FIELDS[name][0];
  const types = (schema.properties as Record<string, { type: string | string[] }>)[field]?.type;
  const wrong = [types].flat().includes("object") ? "a string" : { an: "object" };
  expect(validator.getValidator(schema)({ [field]: wrong }).valid).toBe(false);
});

test("an output field the result does not have is a programming error, caught at start", () => {
  expect(() => publishedOutput(results.search, ["hits"])).toThrow("output field hits");
});

test("inputs keep what a model needs to call, not what the server checks anyway", () => {
  const list = publishedInput(args.list_content) as { properties: Record<string, unknown> };
  expect(list.properties.type).toEqual({
    type: "array",
    items: { type: "string" },
    description: "docs, blog… (list_facets)",
  });
  expect(list.properties.limit).toEqual({ type: "integer", minimum: 1, maximum: 100, default: 20 });
  expect(list.properties.sort).toMatchObject({
    type: "string",
    enum: expect.arrayContaining(["cited"]),
  });
  const crawl = publishedInput(args.start_crawl) as {
    properties: Record<string, unknown>;
    required: string[];
  };
  expect(crawl.required).toEqual(["domain"]);
  expect(crawl.properties.shots).toEqual({
    type: "integer",
    minimum: 0,
    maximum: 10000,
    description: "Pages to screenshot.",
  });
  expect(JSON.stringify(crawl)).not.toContain("maxLength");
});
