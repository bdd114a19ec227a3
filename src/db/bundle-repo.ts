/** The pages of a domain bundle: which ones (most cited first) and their bodies, in batches. */
import { and, asc, count, desc, eq, gte, inArray, type SQL } from "drizzle-orm";
import type { Db } from "./client.ts";
import { pageBodies, pages } from "./schema.ts";

export interface BundleFilter {
  readonly domain: string;
  readonly types: readonly string[];
  readonly technicalityMin: number | null;
}

function where(f: BundleFilter): SQL | undefined {
  return and(
    eq(pages.domain, f.domain),
    f.types.length ? inArray(pages.type, [...f.types]) : undefined,
    f.technicalityMin !== null ? gte(pages.technicality, f.technicalityMin) : undefined,
  );
}

/** Ids of the pages a bundle includes, most cited first, and how many pages match. */
export function bundlePageIds(
  db: Db,
  filter: BundleFilter,
  limit: number,
): { ids: string[]; total: number } {
  const clause = where(filter);
  const total = db.select({ n: count() }).from(pages).where(clause).get()?.n ?? 0;
  const ids = db
    .select({ id: pages.id })
    .from(pages)
    .where(clause)
    .orderBy(desc(pages.inlinksBody), asc(pages.id))
    .limit(limit)
    .all()
    .map((r) => r.id);
  return { ids, total };
}

export interface BundlePage {
  readonly id: string;
  readonly url: string;
  readonly title: string | null;
  readonly markdown: string;
}

/** The pages' bodies, in the order of `ids` (one batch of a streamed bundle). */
export function bundlePages(db: Db, ids: readonly string[]): BundlePage[] {
  if (ids.length === 0) return [];
  const rows = db
    .select({ id: pages.id, url: pages.url, title: pages.title, markdown: pageBodies.markdown })
    .from(pages)
    .innerJoin(pageBodies, eq(pageBodies.pageId, pages.id))
    .where(inArray(pages.id, [...ids]))
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is BundlePage => r !== undefined);
}
