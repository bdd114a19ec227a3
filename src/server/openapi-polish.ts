/**
 * What the generated OpenAPI document says that the plugin cannot: errors are
 * `application/problem+json` with a description and an example per status, the markdown
 * endpoints answer `text/markdown`, and each parameter's description sits on the parameter
 * (where Swagger UI shows it; on its schema it shows nothing). Applied to the plugin's output,
 * never hand-written beside it.
 */

import { bundleMarkdownExample } from "../schemas/examples.ts";
import { fetchedMarkdownExample } from "../schemas/fetch.ts";
import { plainSchema } from "../schemas/json-schema.ts";
import {
  type ExampleOperation,
  type ProblemLimits,
  problemExample,
  type SchemaNode,
} from "./problem-examples.ts";

const STATUS_TEXT: Readonly<Record<string, string>> = {
  400: "Invalid parameter or body",
  401: "Missing or unknown key (WWW-Authenticate: Bearer)",
  403: "The key lacks the right",
  404: "Not found",
  405: "Method not allowed (Allow lists the methods)",
  409: "Conflict",
  413: "Body too large",
  415: "Body is not application/json",
  422: "Fetched, but not an HTML page the crawler indexes (another content type, noindex)",
  429: "Rate limited (Retry-After says when to try again)",
  500: "Internal error (logged; no details are sent)",
  451: "robots.txt disallows the URL for our user agent (or could not be read)",
  501: "Not available on this server: it runs without a search index",
  502: "The site gave no page (timeout, DNS, TLS, 4xx/5xx, too many redirects, too large)",
};

const MARKDOWN_PATHS = new Set(["/api/domains/{root_domain}/content.md"]);
const PNG_PATHS = new Set(["/api/content/{page_id}/screenshot.png"]);
/** Served by one route with its markdown twin (`{page_id}.md`, documented on its own). */
const JSON_ONLY_PATHS = new Set(["/api/content/{page_id}"]);
/** JSON, or markdown for `Accept: text/markdown`. */
const JSON_OR_MARKDOWN_PATHS = new Set(["/api/fetch"]);

interface Response {
  description?: string;
  content?: Record<string, { schema?: unknown; example?: unknown }>;
}
interface Parameter {
  name: string;
  description?: string;
  schema?: SchemaNode & { description?: string };
}
interface Operation extends ExampleOperation {
  parameters?: Parameter[];
  responses?: Record<string, Response>;
}
type Paths = Record<string, Record<string, Operation>>;

const isProblem = (response: Response): boolean =>
  JSON.stringify(response.content ?? {}).includes("#/components/schemas/Problem");

function describedParameter({ schema, ...param }: Parameter): Parameter {
  if (!schema?.description || param.description) return { ...param, schema };
  const { description, ...rest } = schema;
  return { ...param, description, schema: rest };
}

export function polishDocument<T extends { paths?: Paths }>(doc: T, limits: ProblemLimits): T {
  const paths: Paths = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    paths[path] = {};
    for (const [method, op] of Object.entries(item)) {
      const responses: Record<string, Response> = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (isProblem(response)) {
          responses[status] = {
            description: STATUS_TEXT[status] ?? "Problem",
            content: {
              "application/problem+json": {
                schema: { $ref: "#/components/schemas/Problem" },
                example: problemExample(status, path, op, limits),
              },
            },
          };
        } else if (
          response.content &&
          Object.keys(response.content).some((k) => !k.includes("/"))
        ) {
          // The plugin writes a `t.Null()` response (204) as a schema where media types belong.
          responses[status] = { description: response.description ?? "No content" };
        } else if (status.startsWith("2") && MARKDOWN_PATHS.has(path)) {
          responses[status] = {
            description: "The bundle as markdown (streamed)",
            content: {
              "text/markdown; charset=utf-8": {
                schema: { type: "string" },
                example: bundleMarkdownExample,
              },
            },
          };
        } else if (status.startsWith("2") && PNG_PATHS.has(path)) {
          responses[status] = {
            description: "The screenshot (1280x800 PNG)",
            content: { "image/png": { schema: { type: "string", contentMediaType: "image/png" } } },
          };
        } else if (status.startsWith("2") && JSON_OR_MARKDOWN_PATHS.has(path)) {
          const schema = response.content?.["application/json"]?.schema as
            | { anyOf?: { type?: string; description?: string }[] }
            | undefined;
          const object = (schema?.anyOf?.find((s) => s.type !== "string") ?? schema) as
            | { description?: string }
            | undefined;
          responses[status] = {
            description: `${object?.description ?? "The page"}; markdown with a YAML frontmatter for Accept: text/markdown`,
            content: {
              "application/json": { schema: object },
              "text/markdown; charset=utf-8": {
                schema: { type: "string" },
                example: fetchedMarkdownExample,
              },
            },
          };
        } else if (status.startsWith("2") && JSON_ONLY_PATHS.has(path)) {
          const schema = response.content?.["application/json"]?.schema as
            | { anyOf?: { type?: string }[] }
            | undefined;
          const object = schema?.anyOf?.find((s) => s.type !== "string") ?? schema;
          responses[status] = {
            description: "The page",
            content: { "application/json": { schema: object } },
          };
        } else {
          responses[status] = response;
        }
      }
      // Answered by Bun's HTTP parser before the app sees the request (empty body).
      responses["431"] = {
        description: "The request line and headers exceed the server's limit (16 KiB)",
      };
      const parameters = op.parameters?.map(describedParameter);
      paths[path][method] = { ...op, ...(parameters ? { parameters } : {}), responses };
    }
  }
  return plainSchema({ ...doc, paths }) as T;
}
