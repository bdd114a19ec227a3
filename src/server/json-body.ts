/**
 * Bodies of write endpoints: `application/json` only (415), at most the configured size (413,
 * counted while the body streams in, whatever Content-Length claims), valid JSON (400), and no
 * field the endpoint does not know (400: Elysia's schema check would drop it silently).
 */
import type { TObject } from "@sinclair/typebox";
import { ServiceError } from "../services/errors.ts";

export const bodyTooLarge = (limit: number) =>
  new ServiceError("payload_too_large", `the body is limited to ${limit} bytes`);

export const notJson = () =>
  new ServiceError("unsupported_media_type", "send the body as application/json");

async function readCapped(request: Request, limit: number): Promise<string> {
  const tooLarge = () => bodyTooLarge(limit);
  const declared = request.headers.get("content-length");
  if (declared && /^\d+$/.test(declared) && Number(declared) > limit) throw tooLarge();
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
}

export function jsonBodyParser(schema: TObject, limit: number) {
  const known = new Set(Object.keys(schema.properties));
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") {
      throw notJson();
    }
    let text: string;
    try {
      text = await readCapped(request, limit);
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      throw new ServiceError("invalid_body", "the body is not UTF-8 text");
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw new ServiceError(
        "invalid_body",
        `the body is not valid JSON: ${(err as Error).message}`,
      );
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new ServiceError("invalid_body", "body: must be a JSON object", {
        errors: [{ field: "body", message: "must be a JSON object" }],
      });
    }
    const unknown = Object.keys(body)
      .filter((k) => !known.has(k))
      .sort();
    if (unknown.length > 0) {
      throw new ServiceError("invalid_body", `unknown field(s): ${unknown.join(", ")}`, {
        errors: unknown.map((field) => ({ field, message: "unknown field" })),
      });
    }
    return body;
  };
}
