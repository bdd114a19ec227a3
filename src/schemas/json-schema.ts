/**
 * Our TypeBox schemas as plain JSON Schema for documents read by others (the OpenAPI document,
 * MCP tool schemas): Elysia's query integer (`anyOf` a numeric string or an integer, so a query
 * string can carry it) is written as the integer it means, and the keys only our validators read
 * (`error`, `x-param`, `x-field`) are left out, as is `$id`: a schema registered as an Elysia
 * model carries `"$id": "#/components/schemas/…"`, which moves the base URI of every `$ref` under
 * it (Swagger UI's resolver error) and is not a valid `$id` (MCP clients refuse the tool).
 */

const PRIVATE_KEYS = new Set(["error", "x-param", "x-field", "$id"]);

type Json = unknown;

function isQueryInteger(node: Record<string, Json>): boolean {
  const anyOf = node.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return false;
  const kinds = anyOf.map((s) => (s as Record<string, Json>) ?? {});
  return (
    kinds.some((s) => s.type === "integer") &&
    kinds.some((s) => s.type === "string" && s.format === "integer")
  );
}

/** Keywords whose values are instances, not schemas: copied as they are. */
const VALUES = new Set(["examples", "example", "default", "const", "enum"]);

/** Maps whose keys are names (of properties, definitions, media types), not keywords. */
const NAMED = new Set(["properties", "patternProperties", "$defs", "definitions", "schemas"]);

function named(map: Json): Json {
  if (map === null || typeof map !== "object" || Array.isArray(map)) return plainSchema(map);
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, plainSchema(v)]));
}

/** Also walks whole documents (OpenAPI): only schema keywords are dropped, never names. */
export function plainSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(plainSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const node = schema as Record<string, Json>;
  const integer = isQueryInteger(node);
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (PRIVATE_KEYS.has(key) || value === undefined) continue;
    if (key === "anyOf" && integer) continue;
    if (VALUES.has(key)) {
      out[key] = value;
      continue;
    }
    out[key] = NAMED.has(key) ? named(value) : plainSchema(value);
  }
  if (integer) out.type = "integer";
  return out;
}
