/** Shelves (collections) of companies and their members. */
import { asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { collectionMembers, collections, pages } from "./schema.ts";

/**
 * The outer row's column, qualified: in a single-table select drizzle writes a column without its
 * table, which inside a correlated subquery would name the subquery's own column (every shelf then
 * counted every member).
 */
const outer = (table: string, column: string) =>
  sql`${sql.identifier(table)}.${sql.identifier(column)}`;

const shelfSlug = outer("collections", "slug");
const companies = sql<number>`(SELECT count(*) FROM ${collectionMembers} m WHERE m.slug = ${shelfSlug})`;
const crawled = sql<number>`(SELECT count(*) FROM ${collectionMembers} m WHERE m.slug = ${shelfSlug} AND EXISTS (SELECT 1 FROM ${pages} p WHERE p.domain = m.domain))`;

const shelfColumns = {
  slug: collections.slug,
  name: collections.name,
  description: collections.description,
  created_at: collections.createdAt,
  companies,
  crawled,
};

export type ShelfRow = {
  slug: string;
  name: string;
  description: string;
  created_at: string;
  companies: number;
  crawled: number;
};

export function listShelves(
  db: Db,
  limit: number,
  offset: number,
): { rows: ShelfRow[]; total: number } {
  const total = db.select({ n: count() }).from(collections).get()?.n ?? 0;
  const rows = db
    .select(shelfColumns)
    .from(collections)
    .orderBy(asc(collections.slug))
    .limit(limit)
    .offset(offset)
    .all();
  return { rows, total };
}

export function getShelf(db: Db, slug: string): ShelfRow | null {
  return db.select(shelfColumns).from(collections).where(eq(collections.slug, slug)).get() ?? null;
}

export function shelfMembers(db: Db, slug: string) {
  const pagesOf = sql<number>`(SELECT count(*) FROM ${pages} p WHERE p.domain = ${outer("collection_members", "domain")})`;
  return db
    .select({
      domain: collectionMembers.domain,
      reason: collectionMembers.reason,
      placed_by: collectionMembers.placedBy,
      placed_at: collectionMembers.placedAt,
      pages: pagesOf,
    })
    .from(collectionMembers)
    .where(eq(collectionMembers.slug, slug))
    .orderBy(asc(collectionMembers.domain))
    .all();
}

/** Creates or updates a shelf; true when it was created. */
export function putShelf(
  db: Db,
  slug: string,
  name: string,
  description: string,
  at: string,
): boolean {
  return db.transaction((tx) => {
    const existing = tx
      .select({ slug: collections.slug })
      .from(collections)
      .where(eq(collections.slug, slug))
      .get();
    if (existing) {
      tx.update(collections).set({ name, description }).where(eq(collections.slug, slug)).run();
      return false;
    }
    tx.insert(collections).values({ slug, name, description, createdAt: at }).run();
    return true;
  });
}

/** Makes a shelf unless one has this slug; true when it made it. */
export function insertShelf(
  db: Db,
  shelf: { slug: string; name: string; description: string; at: string },
): boolean {
  const made = db
    .insert(collections)
    .values({
      slug: shelf.slug,
      name: shelf.name,
      description: shelf.description,
      createdAt: shelf.at,
    })
    .onConflictDoNothing()
    .returning({ slug: collections.slug })
    .all();
  return made.length > 0;
}

export type PutMemberResult =
  | { readonly outcome: "no_shelf" }
  | { readonly outcome: "created" | "updated" }
  /** An agent's placement left a person's as it was. */
  | { readonly outcome: "kept"; readonly reason: string };

/**
 * Places a domain on a shelf (updating its reason). An agent never overwrites a person's
 * placement: checked in the transaction that would write it.
 */
export function putMember(
  db: Db,
  member: {
    slug: string;
    domain: string;
    reason: string;
    placedBy: "person" | "agent";
    at: string;
  },
): PutMemberResult {
  return db.transaction((tx): PutMemberResult => {
    if (
      !tx
        .select({ slug: collections.slug })
        .from(collections)
        .where(eq(collections.slug, member.slug))
        .get()
    ) {
      return { outcome: "no_shelf" };
    }
    const existing = tx
      .select({ reason: collectionMembers.reason, placedBy: collectionMembers.placedBy })
      .from(collectionMembers)
      .where(
        sql`${collectionMembers.slug} = ${member.slug} AND ${collectionMembers.domain} = ${member.domain}`,
      )
      .get();
    if (existing?.placedBy === "person" && member.placedBy === "agent") {
      return { outcome: "kept", reason: existing.reason };
    }
    tx.insert(collectionMembers)
      .values({
        slug: member.slug,
        domain: member.domain,
        reason: member.reason,
        placedBy: member.placedBy,
        placedAt: member.at,
      })
      .onConflictDoUpdate({
        target: [collectionMembers.slug, collectionMembers.domain],
        set: { reason: member.reason, placedBy: member.placedBy, placedAt: member.at },
      })
      .run();
    return { outcome: existing === undefined ? "created" : "updated" };
  });
}

export function deleteMember(db: Db, slug: string, domain: string): boolean {
  return (
    db
      .delete(collectionMembers)
      .where(sql`${collectionMembers.slug} = ${slug} AND ${collectionMembers.domain} = ${domain}`)
      .returning({ domain: collectionMembers.domain })
      .all().length > 0
  );
}
