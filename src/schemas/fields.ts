/**
 * Builders for parameter and body-field schemas. Each carries its name (`x-param` for query and
 * path parameters, `x-field` for body fields) and the message a bad value gets, so a validation
 * error maps to a problem document naming the parameter, whichever validator step caught it.
 */
import { Type } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";

interface Doc {
  readonly description?: string;
  readonly examples?: readonly unknown[];
}

const tag = (name: string, where: "param" | "field") =>
  where === "param" ? { "x-param": name } : { "x-field": name };

export function intField(
  name: string,
  min: number,
  max: number,
  options: Doc & { default?: number; where?: "param" | "field" } = {},
) {
  const { where = "param", ...doc } = options;
  const range = max >= Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  // Elysia's t.Integer takes a numeric string too (a query string has nothing else); a JSON body
  // field is a JSON number: `"budget": "5"` is refused.
  const integer = where === "field" ? Type.Integer : t.Integer;
  return integer({
    minimum: min,
    maximum: max,
    ...doc,
    ...tag(name, where),
    error: `must be an integer ${range}`,
  });
}

export function scoreField(name: string, description: string) {
  return t.Number({
    minimum: 0,
    maximum: 1,
    description,
    ...tag(name, "param"),
    error: "must be a number from 0 to 1",
  });
}

export function boolField(
  name: string,
  options: Doc & { default?: boolean; where?: "param" | "field" } = {},
) {
  const { where = "param", ...doc } = options;
  return t.Boolean({ ...doc, ...tag(name, where), error: "must be true or false" });
}

export function stringField(
  name: string,
  options: Doc & { minLength?: number; maxLength?: number; where?: "param" | "field" } = {},
) {
  const { where = "param", ...rest } = options;
  const bounds =
    rest.maxLength !== undefined ? `a string of at most ${rest.maxLength} characters` : "a string";
  return t.String({ ...rest, ...tag(name, where), error: `must be ${bounds}` });
}

export function enumField<const V extends readonly string[]>(
  name: string,
  values: V,
  options: Doc & { default?: V[number]; where?: "param" | "field" } = {},
) {
  const { where = "param", ...doc } = options;
  // Without an explicit default, Elysia fills an absent optional UnionEnum with its first value.
  return t.UnionEnum(values as unknown as [V[number], ...V[number][]], {
    default: undefined,
    ...doc,
    ...tag(name, where),
    error: `must be one of ${values.join(", ")}`,
  });
}

/** A comma list filter (`type=docs,blog`); values are checked against `allowed` by the service. */
export function listField(name: string, description: string, allowed?: readonly string[]) {
  const values = allowed ? ` Values: ${allowed.join(", ")}.` : "";
  return stringField(name, {
    description: `${description} Comma list: any of the values matches.${values}`,
    maxLength: 4000,
  });
}

/**
 * The message for a value a string schema refused: an empty string where one character at least
 * is needed gets its own ("must not be empty", not "must be a string of at most 200 characters").
 */
export function refusalMessage(schema: TSchema | undefined, value: unknown, message: string) {
  const min = (schema as { minLength?: unknown } | undefined)?.minLength;
  return value === "" && typeof min === "number" && min >= 1 ? "must not be empty" : message;
}

/** The parameter name a schema was built for, from its tags. */
export function fieldName(
  schema: TSchema | undefined,
): { name: string; where: "param" | "field" } | null {
  if (!schema) return null;
  const record = schema as Record<string, unknown>;
  if (typeof record["x-param"] === "string") return { name: record["x-param"], where: "param" };
  if (typeof record["x-field"] === "string") return { name: record["x-field"], where: "field" };
  return null;
}
