import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "./client.ts";
import { apiKeys } from "./schema.ts";

export type KeyRecord = typeof apiKeys.$inferSelect;
export type KeySummary = Omit<KeyRecord, "keyHash">;

export type InsertKeyResult = { ok: true } | { ok: false; revoked: boolean };

/** Inserts a key; a taken name (active or revoked: names are not reused) is reported, not thrown. */
export function insertKey(db: Db, record: typeof apiKeys.$inferInsert): InsertKeyResult {
  const existing = db
    .select({ revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.name, record.name))
    .get();
  if (existing) return { ok: false, revoked: existing.revokedAt !== null };
  db.insert(apiKeys).values(record).run();
  return { ok: true };
}

export function findActiveKey(db: Db, keyHash: string): KeyRecord | null {
  return (
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
      .get() ?? null
  );
}

export function listKeys(db: Db): KeySummary[] {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .orderBy(asc(apiKeys.name))
    .all();
}

export function revokeKey(db: Db, name: string, at: string): boolean {
  const revoked = db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.name, name), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
    .all();
  return revoked.length > 0;
}
