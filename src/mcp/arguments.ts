/**
 * Tool arguments from the HTTP parameter schemas (src/schemas/params.ts): the same TypeBox
 * schemas validate both adapters and are published as each tool's JSON Schema. Two adjustments
 * make them fit JSON arguments instead of query strings:
 * - a comma-list parameter (`type=docs,blog`) takes a list of strings too (`["docs", "blog"]`),
 *   its items constrained to the vocabulary when there is one;
 * - Elysia's `t.Integer` also accepts numeric strings (a query string has nothing else); a tool
 *   argument is a JSON integer.
 * A bad argument is refused with the problem document the HTTP API sends for that parameter.
 */
import { KindGuard, type TObject, type TSchema, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { fieldName, refusalMessage } from "../schemas/fields.ts";
import { plainSchema } from "../schemas/json-schema.ts";
import { type FieldError, ServiceError } from "../services/errors.ts";

/** What a list parameter's items may be, by parameter name (`null`: any string). */
export type Vocabularies = Readonly<Record<string, readonly string[] | null>>;

type Options = Record<string, unknown>;

/** The schema's own keywords (description, bounds, tags), without its Kind and sub-schemas. */
function options(schema: TSchema, drop: readonly string[]): Options {
  const out: Options = {};
  for (const [key, value] of Object.entries(schema)) if (!drop.includes(key)) out[key] = value;
  return out;
}

/** Elysia's integer: a union of a numeric string and an integer. */
function isQueryInteger(schema: TSchema): boolean {
  return (
    KindGuard.IsUnion(schema) &&
    schema.anyOf.some((s) => KindGuard.IsInteger(s)) &&
    schema.anyOf.some((s) => KindGuard.IsString(s) && s.format === "integer")
  );
}

function adapt(schema: TSchema, vocabularies: Vocabularies): TSchema {
  const optional = KindGuard.IsOptional(schema);
  let out = schema;
  const name = fieldName(schema)?.name;
  if (isQueryInteger(schema)) {
    out = Type.Integer(options(schema, ["anyOf", "type"]));
  } else if (KindGuard.IsUnion(schema)) {
    out = Type.Union(
      schema.anyOf.map((s) => adapt(s, vocabularies)),
      options(schema, ["anyOf"]),
    );
  } else if (KindGuard.IsString(schema) && name !== undefined && name in vocabularies) {
    const values = vocabularies[name];
    const item = values ? Type.String({ enum: [...values] }) : Type.String({ minLength: 1 });
    const { description, ...rest } = options(schema, ["type"]);
    out = Type.Union([Type.String(rest), Type.Array(item, { minItems: 1, maxItems: 200 })], {
      description: `${description ?? ""} Over MCP: a list of strings, or the comma list as one string.`,
      "x-param": name,
      error: "must be a list of strings or a comma list of them",
    });
  }
  return optional ? Type.Optional(out) : out;
}

/**
 * The tool's argument schema from an HTTP parameter (or body) schema. Its static type stays the
 * HTTP one: the tools join list arguments into comma lists before the services see them.
 */
export function toolSchema<T extends TObject>(schema: T, vocabularies: Vocabularies = {}): T {
  const properties: Record<string, TSchema> = {};
  for (const [key, value] of Object.entries(schema.properties)) {
    properties[key] = adapt(value, vocabularies);
  }
  return Type.Object(
    properties,
    options(schema, ["properties", "required", "type"]),
  ) as TSchema as T;
}

/** The schema as plain JSON Schema: no TypeBox symbols, no keys of our own. */
export function jsonSchema(schema: TSchema): Record<string, unknown> {
  return plainSchema(JSON.parse(JSON.stringify(schema))) as Record<string, unknown>;
}

export interface ArgumentParser<T> {
  readonly schema: TObject;
  /** Checks `args`; returns them with the names the schema does not know (sorted). */
  parse(args: Record<string, unknown>): { value: T; unrecognized: string[] };
}

export function argumentParser<T>(
  schema: TObject,
  where: "param" | "field" = "param",
): ArgumentParser<T> {
  const check = TypeCompiler.Compile(schema);
  const order = Object.keys(schema.properties);
  return {
    schema,
    parse(args) {
      const unrecognized = Object.keys(args)
        .filter((k) => !(k in schema.properties))
        .sort();
      const known = Object.fromEntries(
        Object.entries(args).filter(([k]) => k in schema.properties),
      );
      if (check.Check(known)) return { value: known as T, unrecognized };
      const messages = new Map<string, string>();
      for (const error of check.Errors(known)) {
        const top = error.path.split("/")[1] ?? "";
        if (!top || messages.has(top)) continue;
        const property = schema.properties[top];
        const custom = property ? (property as Options).error : undefined;
        messages.set(
          top,
          known[top] === undefined
            ? "is required"
            : refusalMessage(
                property,
                known[top],
                typeof custom === "string" ? custom : error.message,
              ),
        );
      }
      const names = [...messages.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
      const errors: FieldError[] = names.map((name) =>
        where === "param"
          ? { param: name, message: messages.get(name) ?? "is invalid" }
          : { field: name, message: messages.get(name) ?? "is invalid" },
      );
      const detail = errors.map((e) => `${"param" in e ? e.param : e.field}: ${e.message}`);
      throw new ServiceError(
        where === "param" ? "invalid_parameter" : "invalid_body",
        detail.join("; "),
        {
          errors,
        },
      );
    },
  };
}
