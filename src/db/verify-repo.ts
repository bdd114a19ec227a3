/**
 * What `webcorpus verify` compares a domain's search shard with: every stored page of the
 * domain (version and facets) and every chunk (heading, text, and the vector row it points at).
 * Read in two queries per domain, on whatever connection the caller holds (read-only or not).
 */
import type { Db } from "./client.ts";

export interface VerifyPage {
  readonly id: string;
  /** `pages.text_hash`: the version a shard indexes the page at. */
  readonly version: string;
  readonly title: string | null;
  readonly type: string;
  readonly locale: string | null;
  readonly topics: readonly string[];
  readonly technicality: number;
}

export interface VerifyChunk {
  readonly pageId: string;
  readonly idx: number;
  readonly heading: string;
  readonly text: string;
  readonly embedded: boolean;
  readonly vectorWanted: boolean;
  /** `chunks.vector_id`; null until the chunk is embedded (or when the policy gives it none). */
  readonly vectorId: number | null;
  /** The stored form of its vector (codes and scale); null when there is no row. */
  readonly vector: Uint8Array | null;
}

/** The domain's pages, by id. */
export function verifyPages(db: Db, domain: string): Map<string, VerifyPage> {
  const rows = db.$client
    .query<
      {
        id: string;
        version: string;
        title: string | null;
        type: string;
        locale: string | null;
        topics: string;
        technicality: number;
      },
      [string]
    >(
      `SELECT id, text_hash AS version, title, type, locale, topics, technicality
       FROM pages WHERE domain = ?1`,
    )
    .all(domain);
  return new Map(
    rows.map((r) => [r.id, { ...r, topics: JSON.parse(r.topics) as string[] } as VerifyPage]),
  );
}

/** The domain's chunks with their vector rows, one at a time (a domain may hold 100k). */
export function* verifyChunks(db: Db, domain: string): Generator<VerifyChunk> {
  const query = db.$client.query<
    {
      pageId: string;
      idx: number;
      heading: string;
      text: string;
      embedded: number;
      vectorWanted: number;
      vectorId: number | null;
      vector: Uint8Array | null;
    },
    [string]
  >(
    `SELECT c.page_id AS pageId, c.idx, c.heading, c.text, c.embedded,
            c.vector_wanted AS vectorWanted, c.vector_id AS vectorId, v.vector
     FROM pages p JOIN chunks c ON c.page_id = p.id LEFT JOIN vectors v ON v.id = c.vector_id
     WHERE p.domain = ?1`,
  );
  for (const r of query.iterate(domain)) {
    yield { ...r, embedded: r.embedded === 1, vectorWanted: r.vectorWanted === 1 };
  }
}
