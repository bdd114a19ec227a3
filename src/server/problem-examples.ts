/**
 * The example problem document of each error response in the OpenAPI document, made by the
 * constructors the services throw, about the operation's own parameters and resources: Swagger UI
 * shows what the server answers instead of a skeleton of the schema.
 */
import type { KeyRecord } from "../db/keys-repo.ts";
import { exampleIds } from "../schemas/examples.ts";
import { personPlacement, unknownShelf } from "../services/collections-service.ts";
import {
  conflict,
  invalidBody,
  invalidParam,
  notFound,
  notImplemented,
  PROBLEMS,
  type ProblemCode,
  ServiceError,
} from "../services/errors.ts";
import { requireScope } from "../services/keys-service.ts";
import { rateLimited } from "../services/rate-limiter.ts";
import { bodyTooLarge, notJson } from "./json-body.ts";

/** The settings an error's wording depends on. */
export interface ProblemLimits {
  readonly maxBodyRequestBytes: number;
  readonly crawlRatePerMinute: number;
  readonly fetchRatePerMinute: number;
}

export interface SchemaNode {
  readonly error?: unknown;
  readonly minimum?: unknown;
  readonly properties?: Record<string, SchemaNode>;
}
export interface ExampleOperation {
  readonly parameters?: readonly { readonly name: string; readonly schema?: SchemaNode }[];
  readonly requestBody?: { readonly content?: Record<string, { readonly schema?: SchemaNode }> };
}

function thrown(work: () => unknown): ServiceError {
  try {
    work();
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error("expected a ServiceError");
}

/** A body field or parameter with its validation message; numeric bounds make the clearest. */
function invalid(op: ExampleOperation): ServiceError {
  const body = op.requestBody?.content?.["application/json"]?.schema?.properties;
  const field = Object.entries(body ?? {}).find(([, s]) => typeof s.error === "string");
  if (field) return invalidBody(field[0], String(field[1].error));
  const params = (op.parameters ?? []).filter((p) => typeof p.schema?.error === "string");
  const param = params.find((p) => typeof p.schema?.minimum === "number") ?? params[0];
  if (param) return invalidParam(param.name, String(param.schema?.error));
  // Any endpoint: a single-value parameter given twice (server/query.ts).
  return new ServiceError("invalid_parameter", "limit: given more than once; give it once", {
    errors: [{ param: "limit", message: "given more than once" }],
  });
}

function missing(path: string, op: ExampleOperation): ServiceError {
  const { page, job, domain, slug } = exampleIds;
  if (op.parameters?.some((p) => p.name === "collection")) {
    return unknownShelf("ai-tools", [slug], 1);
  }
  if (path.endsWith("/screenshot.png")) {
    return notFound(`a screenshot of page ${page} (crawl with shots to take one)`);
  }
  if (path.includes("{page_id}")) return notFound(`page ${page}`);
  if (path.includes("{job_id}")) return notFound(`job ${job}`);
  if (path.includes("{root_domain}")) return notFound(`domain ${domain}`);
  if (path.includes("{domain}")) return notFound(`${domain} on collection ${slug}`);
  if (path.includes("{slug}")) return notFound(`collection ${slug}`);
  return new ServiceError("not_found", `no such endpoint: GET ${path}/nothing`);
}

const readOnlyKey = { scopes: "read" } as KeyRecord;
const FETCH_PATH = "/api/fetch";
const FETCHED = "https://www.postgresql.org/docs/15/sql-createindex.html";

export function problemExample(
  status: string,
  path: string,
  op: ExampleOperation,
  limits: ProblemLimits,
): Record<string, unknown> {
  const { job, domain } = exampleIds;
  const error = (() => {
    switch (status) {
      case "400":
        return invalid(op);
      case "401":
        return thrown(() => requireScope(null, "write"));
      case "403":
        return thrown(() => requireScope(readOnlyKey, "write"));
      case "404":
        return missing(path, op);
      case "409":
        if (path.endsWith("/cancel")) return conflict(`job ${job} has ended (completed)`);
        if (path.includes("/members")) {
          return personPlacement(domain, exampleIds.slug, "a database company");
        }
        return conflict(`${domain} already has an active crawl ${job}`, { job_id: job });
      case "413":
        return bodyTooLarge(limits.maxBodyRequestBytes);
      case "415":
        return notJson();
      case "429":
        return path === FETCH_PATH
          ? rateLimited(limits.fetchRatePerMinute, 60, ["URL fetch", "URL fetches"])
          : rateLimited(limits.crawlRatePerMinute, 60);
      case "422":
        return new ServiceError(
          "not_a_page",
          `${FETCHED}.zip: notHtml: content type application/zip: not a page the crawler indexes`,
          { extra: { bucket: "notHtml" } },
        );
      case "451":
        return new ServiceError(
          "robots_disallowed",
          `${FETCHED}: disallowed by robots.txt for user agent webcorpus`,
          { extra: { robots_url: "https://www.postgresql.org/robots.txt" } },
        );
      case "502":
        return new ServiceError("fetch_failed", `${FETCHED}: serverError: HTTP 503`, {
          extra: { bucket: "serverError", upstream_status: 503 },
        });
      case "501":
        if (path === FETCH_PATH)
          return new ServiceError(
            "not_implemented",
            "store: storing a fetched page is not implemented yet; fetch with store=false, or crawl the domain (POST /api/crawl)",
          );
        return path === "/api/content"
          ? notImplemented("full-text q on /api/content on this server (it has no search index)")
          : notImplemented("search on this server (it has no search index)");
      case "500":
        return new ServiceError(
          "internal",
          "the server failed to answer; the error has been logged",
        );
      default: {
        const code = (Object.keys(PROBLEMS) as ProblemCode[]).find(
          (c) => String(PROBLEMS[c][1]) === status,
        );
        return new ServiceError(code ?? "internal", PROBLEMS[code ?? "internal"][0]);
      }
    }
  })();
  return error.problem();
}
