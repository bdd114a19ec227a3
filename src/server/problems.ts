/**
 * RFC 9457 problem documents for every error the HTTP API answers, Elysia's own included
 * (validation, parse, not found), mapped in this one place. Unknown errors are logged with their
 * cause and answered as a generic 500: internals never reach a client.
 */
import { Elysia, type ValidationError } from "elysia";
import { fieldName, refusalMessage } from "../schemas/fields.ts";
import { type FieldError, PROBLEMS, ServiceError } from "../services/errors.ts";

export const PROBLEM_TYPE = "application/problem+json";

export function problemResponse(err: ServiceError): Response {
  return new Response(JSON.stringify(err.problem()), {
    status: err.status,
    headers: { "content-type": PROBLEM_TYPE, ...err.headers },
  });
}

interface ValueError {
  readonly path?: string;
  readonly message?: string;
  readonly value?: unknown;
  readonly schema?: Record<string, unknown>;
}

/** A validation failure as the parameter or field it concerns and what the value must be. */
export function fromValidation(error: Readonly<ValidationError>): ServiceError {
  const valueError = (error as unknown as { valueError?: ValueError }).valueError ?? {};
  const tagged = fieldName(valueError.schema as never);
  const inBody = error.type === "body" || tagged?.where === "field";
  const pathName = (valueError.path ?? "").replace(/^\//, "").replace(/\//g, ".");
  const name = tagged?.name ?? (pathName || (inBody ? "body" : "query"));
  let message = (error as unknown as { customError?: unknown }).customError;
  if (typeof message !== "string") message = valueError.message ?? "is invalid";
  message = refusalMessage(valueError.schema as never, valueError.value, message as string);
  if (valueError.value === undefined && pathName) message = "is required";
  if (inBody && !pathName && !tagged) message = "must be a JSON object";
  const entry: FieldError = inBody
    ? { field: name, message: message as string }
    : { param: name, message: message as string };
  return new ServiceError(inBody ? "invalid_body" : "invalid_parameter", `${name}: ${message}`, {
    errors: [entry],
  });
}

/** Routes as (pattern, method) for telling 404 (no such path) from 405 (no such method). */
export type RouteTable = () => readonly { readonly method: string; readonly path: string }[];

function matcher(path: string): RegExp {
  const pattern = path
    .split("/")
    .map((part) =>
      part.startsWith(":")
        ? "[^/]+"
        : part === "*"
          ? ".*"
          : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  return new RegExp(`^${pattern}$`);
}

function allowedMethods(routes: RouteTable, path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes()) {
    if (matcher(route.path).test(path)) methods.add(route.method === "ALL" ? "*" : route.method);
  }
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

const log = (message: string, err: unknown) => {
  console.error(`${new Date().toISOString()} ERROR ${message}`, err);
};

export function problems(routes: RouteTable) {
  return new Elysia({ name: "problems" }).onError(
    { as: "global" },
    ({ code, error, request, path }) => {
      if (error instanceof ServiceError) return problemResponse(error);
      switch (code) {
        case "VALIDATION":
          if (error.type === "response") break;
          return problemResponse(fromValidation(error));
        case "PARSE": {
          const cause = (error as Error).cause;
          if (cause instanceof ServiceError) return problemResponse(cause);
          return problemResponse(
            new ServiceError("invalid_body", "the body could not be read as JSON"),
          );
        }
        case "NOT_FOUND": {
          const allowed = allowedMethods(routes, path);
          if (allowed.length > 0 && !allowed.includes("*")) {
            return problemResponse(
              new ServiceError(
                "method_not_allowed",
                `${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`,
                {
                  headers: { Allow: allowed.join(", ") },
                },
              ),
            );
          }
          return problemResponse(
            new ServiceError("not_found", `no such endpoint: ${request.method} ${path}`),
          );
        }
        default:
          break;
      }
      log(`unhandled error on ${request.method} ${path}`, error);
      return problemResponse(
        new ServiceError("internal", "the server failed to answer; the error has been logged"),
      );
    },
  );
}

export { PROBLEMS };
