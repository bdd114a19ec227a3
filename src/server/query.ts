/**
 * Query parameters beyond what Elysia's schema check does: repeated list filters are joined
 * (`?type=docs&type=blog` is `type=docs,blog`), a repeated single-value parameter is a 400 (no
 * value can be chosen without guessing), an integer parameter is decimal digits only, and
 * unknown names are reported in `filters.unrecognized`, read from the raw URL because the schema
 * check drops them.
 */
import type { TObject } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { ServiceError } from "../services/errors.ts";

export const LIST_PARAMS: ReadonlySet<string> = new Set([
  "domain",
  "type",
  "format",
  "audience",
  "locale",
  "topics",
]);

/** Every other parameter the API knows takes one value. */
export const SINGLE_PARAMS: ReadonlySet<string> = new Set([
  "q",
  "mode",
  "collection",
  "technicality_min",
  "depth_min",
  "originality_min",
  "promotional_max",
  "has_code",
  "words_min",
  "published_after",
  "sort",
  "limit",
  "offset",
  "state",
  "bucket",
  "markdown",
  "explain",
]);

/** The query parameters that are integers (`intField`s): decimal digits, a minus at most. */
export const INTEGER_PARAMS: ReadonlySet<string> = new Set(["limit", "offset", "words_min"]);

const DECIMAL = /^-?[0-9]+$/;

/**
 * Elysia's query integer is `Number(value)`, so `0x10`, `1e2`, ` 1` and `1.0` pass as 16, 100,
 * 1 and 1. Such a value is handed to the schema check as one no integer schema accepts, so it is
 * refused with the parameter's own message, as any other bad value.
 */
function decimalOnly(query: Record<string, unknown>): void {
  for (const name of INTEGER_PARAMS) {
    const value = query[name];
    if (typeof value === "string" && !DECIMAL.test(value)) query[name] = "not a decimal integer";
  }
}

function searchParams(request: Request): URLSearchParams {
  const url = request.url;
  const q = url.indexOf("?");
  return new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
}

export const repeatedParams = new Elysia({ name: "repeated-params" }).onTransform(
  { as: "global" },
  ({ request, query, path }) => {
    if (path.startsWith("/api/mcp")) return;
    decimalOnly(query);
    if (!request.url.includes("&")) return;
    const params = searchParams(request);
    const seen = new Map<string, string[]>();
    for (const [key, value] of params) seen.set(key, [...(seen.get(key) ?? []), value]);
    const single: string[] = [];
    for (const [key, values] of seen) {
      if (values.length < 2) continue;
      if (LIST_PARAMS.has(key)) (query as Record<string, string>)[key] = values.join(",");
      else if (SINGLE_PARAMS.has(key)) single.push(key);
    }
    if (single.length > 0) {
      single.sort();
      throw new ServiceError(
        "invalid_parameter",
        `${single.join(", ")}: given more than once; give it once`,
        { errors: single.map((param) => ({ param, message: "given more than once" })) },
      );
    }
  },
);

/** Query parameter names the endpoint's schema does not know, sorted. */
export function unrecognized(request: Request, schema: TObject): string[] {
  const known = schema.properties;
  const out = new Set<string>();
  for (const key of searchParams(request).keys()) if (!(key in known)) out.add(key);
  return [...out].sort();
}
