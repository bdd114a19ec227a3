/** Response maps for route declarations: the success schema plus the problems a route can answer. */
import { CloneType } from "@sinclair/typebox";
import { Elysia, type TSchema } from "elysia";
import { problemSchema } from "../schemas/responses.ts";

/**
 * The Problem schema as a named model, so the OpenAPI document lists it once as a component.
 * Elysia writes `$id` onto the schema it registers; its own copy keeps that off the shared `Problem`
 * (MCP output schemas embed it, and a `$id` with a fragment is invalid JSON Schema there).
 */
export const models = new Elysia({ name: "models" }).model({ Problem: problemSchema() });

const STATUSES = [400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 451, 500, 501, 502] as const;
type Status = (typeof STATUSES)[number];

/** `{200: schema, 400: "Problem", 500: "Problem", …}`; 400 and 500 are on every route. */
export function responses<S extends Record<number, TSchema>>(success: S, ...statuses: Status[]) {
  const out: Record<number, TSchema | "Problem"> = { ...success };
  for (const status of [400, 500, ...statuses]) out[status] = "Problem";
  return out as S & Record<Status, "Problem">;
}

/**
 * A success schema as one response documents it: the plugin takes a response's description from
 * its schema (else "Response for status 200"), and Swagger UI shows the schema's example.
 */
export function described<T extends TSchema>(schema: T, description: string, example?: unknown): T {
  return CloneType(schema, {
    description,
    ...(example === undefined ? {} : { examples: [example] }),
  });
}
