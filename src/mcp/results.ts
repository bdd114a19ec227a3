/**
 * Tool results: compact text for the model with the HTTP API's JSON as structured content,
 * markdown in parts bounded by `max_chars` and `offset`, and errors as results carrying the
 * RFC 9457 problem document the HTTP API would send, with a hint saying what to change.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { invalidParam, type ServiceError } from "../services/errors.ts";

export const DEFAULT_MAX_CHARS = 20_000;
export const MAX_MAX_CHARS = 1_000_000;

const HINTS: Readonly<Record<string, string>> = {
  not_found: "Check the id or name; search, list_content and list_collections return valid ones.",
  invalid_parameter:
    "Fix the argument named above and call again; list_facets lists the valid facet values.",
  invalid_body: "Fix the argument named above and call again.",
  unauthorized:
    "This tool needs an API key: configure the MCP client to send the HTTP header 'Authorization: Bearer <key>' (an operator creates one with 'webcorpus keys create NAME').",
  forbidden: "The key in use lacks this right; ask the operator for a key with write access.",
  conflict: "Follow the existing job with get_job instead of starting another.",
  not_implemented: "This server runs without a search index; use list_content instead.",
};

/** A result: `text` for the model (text-answers.ts), the HTTP API's JSON as structured content. */
export function answer(text: string, data: object): CallToolResult {
  return {
    content: [{ type: "text", text }],
    structuredContent: data as Record<string, unknown>,
  };
}

/** The JSON itself as the text, for a model that asked for all of it. */
export const asJson = (data: object): CallToolResult => answer(JSON.stringify(data), data);

export function toolError(err: ServiceError): CallToolResult {
  let hint = HINTS[err.code] ?? "";
  if (err.code === "conflict" && !("job_id" in err.problem())) hint = "";
  const retry = err.headers["Retry-After"];
  if (err.code === "rate_limited" && retry)
    hint = `Too many ${err.message.includes("URL fetch") ? "URL fetches" : "crawl starts"}; call again in ${retry} s.`;
  const detail = err.message.replace(/\.$/, "");
  return {
    content: [{ type: "text", text: `${err.code}: ${detail}.${hint ? ` ${hint}` : ""}` }],
    structuredContent: err.problem(),
    isError: true,
  };
}

export interface MarkdownPart {
  markdown: string;
  offset: number;
  returned_chars: number;
  total_chars: number;
  truncated: boolean;
  next_offset: number | null;
}

/** Part of a long markdown document: cut at a line break near `maxChars` when there is one. */
export function clip(text: string, offset: number, maxChars: number): MarkdownPart {
  const total = text.length;
  if (offset > total) {
    throw invalidParam("offset", `is past the end of the document (${total} characters)`);
  }
  let end = Math.min(total, offset + maxChars);
  if (end < total) {
    const newline = text.lastIndexOf("\n", end - 1);
    if (newline >= offset + Math.floor(maxChars / 2)) end = newline + 1;
  }
  const part = text.slice(offset, end);
  const truncated = end < total;
  return {
    markdown: part,
    offset,
    returned_chars: part.length,
    total_chars: total,
    truncated,
    next_offset: truncated ? end : null,
  };
}

/** A markdown result: the part as structured content; the text says how to get the rest. */
export function markdownResult(
  extra: Record<string, string>,
  text: string,
  offset: number,
  maxChars: number,
): CallToolResult {
  const part = { ...extra, ...clip(text, offset, maxChars) };
  let body = part.markdown;
  if (part.truncated) {
    body += `\n\n[truncated: characters ${offset}..${part.next_offset} of ${part.total_chars} shown; call again with offset=${part.next_offset} or a larger max_chars for more]`;
  }
  return { content: [{ type: "text", text: body }], structuredContent: part };
}
