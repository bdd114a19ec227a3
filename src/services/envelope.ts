/** The list envelope of the contract, shared by the HTTP routes and the MCP tools. */

export interface ListPage<T> {
  readonly data: readonly T[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  readonly sort: string;
  readonly applied: Record<string, unknown>;
}

export interface ListEnvelope<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
  sort: string;
  filters: { applied: Record<string, unknown>; unrecognized: string[] };
}

/** `unrecognized`: the parameter (or argument) names the endpoint does not know, sorted. */
export function envelope<T>(page: ListPage<T>, unrecognized: readonly string[]): ListEnvelope<T> {
  return {
    data: [...page.data],
    total: page.total,
    limit: page.limit,
    offset: page.offset,
    sort: page.sort,
    filters: { applied: page.applied, unrecognized: [...unrecognized] },
  };
}
