/**
 * The schemas `tools/list` publishes, sized for an agent's context. Every client puts the whole
 * tool list in the model's context on every turn, so each byte is paid for again and again:
 * - input schemas keep what tells a model how to call (type, enum, default, numeric bounds, a
 *   short description); string length caps and examples go (the server still checks them and
 *   answers a tool error naming the argument). A list filter is published as an array of strings;
 *   a comma list in one string is still accepted. Facet vocabularies (20 types, 9 formats, 9
 *   audiences, 37 topics) are not repeated in every tool that filters by them: the argument's
 *   note points to list_facets, and a value outside its vocabulary is a tool error listing the
 *   valid ones.
 * - output schemas name the result's main top-level fields and their JSON types. Clients validate
 *   `structuredContent` against them (the TypeScript SDK even for a tool error's problem document).
 * The full schemas stay in the OpenAPI document (/api/openapi.json).
 */
import type { TSchema } from "@sinclair/typebox";
import { jsonSchema } from "./arguments.ts";
import { ARGUMENT_NOTES } from "./tool-descriptions.ts";

type Json = Record<string, unknown>;

const KEEP = new Set(["type", "enum", "default", "minimum", "maximum", "description", "items"]);
/** Arguments whose bounds their names already say (a 0..1 score) or no model would reach. */
const UNBOUNDED_ARGS = new Set([
  "technicality_min",
  "depth_min",
  "originality_min",
  "promotional_max",
  "max_chars",
]);
/** Bounds a model gains nothing from: "any length", "any offset". */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** Our list filters' prose: "… Comma list: any of the values matches. Values: a, b. Over MCP: …". */
function shortDescription(text: string): string {
  return text
    .replace(/ ?Comma list: any of the values matches\./, " Any of them matches.")
    .replace(/ ?Values: [^.]*\./, "")
    .replace(/ ?Over MCP: [^.]*\./, "")
    .trim();
}

/** The argument's published description: its note, else the HTTP one shortened; "" for none. */
function describe(name: string, schema: Json): string {
  const note = ARGUMENT_NOTES[name];
  if (note !== undefined) return note;
  return typeof schema.description === "string" ? shortDescription(schema.description) : "";
}

function withDescription(out: Json, description: string): Json {
  return description ? { ...out, description } : out;
}

function compactProperty(name: string, schema: Json): Json {
  const description = describe(name, schema);
  const anyOf = schema.anyOf as Json[] | undefined;
  const list = anyOf?.find((s) => s.type === "array");
  if (list && anyOf?.some((s) => s.type === "string")) {
    const items = { ...((list.items as Json | undefined) ?? {}) };
    delete items.minLength;
    delete items.enum;
    return withDescription({ type: "array", items }, description);
  }
  const integer = anyOf?.find((s) => s.type === "integer");
  if (integer && anyOf?.every((s) => s === integer || s.type === "boolean")) {
    // `shots: true` is the HTTP shorthand for 10; a model gives the number
    return compactProperty(name, { ...integer, description: schema.description });
  }
  const out: Json = {};
  if (anyOf) out.anyOf = anyOf.map((s) => compactProperty("", s));
  for (const [key, value] of Object.entries(schema)) {
    if (!KEEP.has(key) || key === "description" || value === UNBOUNDED) continue;
    if ((key === "minimum" || key === "maximum") && UNBOUNDED_ARGS.has(name)) continue;
    if (key === "default" && (value === false || value === 0)) continue; // what absence means
    // A list's items: their values when they have a vocabulary; strings of any kind (globs,
    // URLs) go, as their length caps do: the argument's name and note say what they are.
    if (key === "items" && value !== null && typeof value === "object") {
      const { type, enum: values } = value as Json;
      if (values !== undefined) out.items = { type, enum: values };
      else if (type !== "string") out.items = { type };
      continue;
    }
    out[key] = value;
  }
  return withDescription(out, description);
}

/** A tool's published input schema (see the module comment). */
export function publishedInput(schema: TSchema): Json {
  const full = jsonSchema(schema);
  const properties = (full.properties ?? {}) as Record<string, Json>;
  const out: Json = {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, p]) => [name, compactProperty(name, p)]),
    ),
  };
  if (Array.isArray(full.required) && full.required.length > 0) out.required = full.required;
  return out;
}

/** JSON type names a schema allows (`["string", "null"]` for a nullable string). */
function types(schema: Json): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives) return [...new Set(alternatives.flatMap(types))];
  if (schema.enum) return ["string"];
  return [];
}

/**
 * A tool's published output schema: the named top-level fields of its result with their JSON
 * types. No `required` and no `additionalProperties: false`, so the result's other fields and the
 * problem document of a tool error (type, title, status, detail, code, errors) validate too.
 */
export function publishedOutput(result: TSchema, fields: readonly string[]): Json {
  const properties = (jsonSchema(result).properties ?? {}) as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const name of fields) {
    const property = properties[name];
    if (!property) throw new Error(`output field ${name} is not in the result schema`);
    const kinds = types(property);
    out[name] = { type: kinds.length === 1 ? kinds[0] : kinds };
  }
  return { type: "object", properties: out };
}
