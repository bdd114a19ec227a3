/**
 * Errors raised by services. Adapters turn them into RFC 9457 problem documents (HTTP) or tool
 * errors (MCP) in one place each; nothing else maps errors to statuses.
 */

export const PROBLEMS = {
  invalid_parameter: ["Invalid parameter", 400],
  invalid_body: ["Invalid body", 400],
  unauthorized: ["Unauthorized", 401],
  forbidden: ["Forbidden", 403],
  not_found: ["Not found", 404],
  method_not_allowed: ["Method not allowed", 405],
  conflict: ["Conflict", 409],
  payload_too_large: ["Payload too large", 413],
  unsupported_media_type: ["Unsupported media type", 415],
  not_a_page: ["Not a page", 422],
  rate_limited: ["Too many requests", 429],
  robots_disallowed: ["Disallowed by robots.txt", 451],
  internal: ["Internal error", 500],
  not_implemented: ["Not implemented", 501],
  fetch_failed: ["Fetch failed", 502],
} as const satisfies Record<string, readonly [string, number]>;

export type ProblemCode = keyof typeof PROBLEMS;

/** One failing parameter (query/path) or body field. */
export type FieldError = { param: string; message: string } | { field: string; message: string };

export class ServiceError extends Error {
  override readonly name = "ServiceError";
  readonly code: ProblemCode;
  readonly errors: readonly FieldError[];
  readonly headers: Readonly<Record<string, string>>;
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(
    code: ProblemCode,
    detail: string,
    options: {
      errors?: readonly FieldError[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
    this.code = code;
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  get status(): number {
    return PROBLEMS[this.code][1];
  }

  get title(): string {
    return PROBLEMS[this.code][0];
  }

  /** The RFC 9457 problem document, as the HTTP API sends it and MCP tool errors carry it. */
  problem(): Record<string, unknown> {
    return {
      type: `urn:webcorpus:error:${this.code}`,
      title: this.title,
      status: this.status,
      detail: this.message,
      code: this.code,
      ...(this.errors.length > 0 ? { errors: this.errors } : {}),
      ...this.extra,
    };
  }
}

export function invalidParam(param: string, message: string): ServiceError {
  return new ServiceError("invalid_parameter", `${param}: ${message}`, {
    errors: [{ param, message }],
  });
}

export function invalidBody(field: string, message: string): ServiceError {
  return new ServiceError("invalid_body", `${field}: ${message}`, {
    errors: [{ field, message }],
  });
}

export function notFound(what: string): ServiceError {
  return new ServiceError("not_found", `${what} not found`);
}

export function conflict(detail: string, extra: Record<string, unknown> = {}): ServiceError {
  return new ServiceError("conflict", detail, { extra });
}

/** An endpoint declared by the contract whose behaviour is not built yet. */
export function notImplemented(what: string): ServiceError {
  return new ServiceError("not_implemented", `${what} is not implemented yet`);
}
