/** API keys: made once, shown once, stored as SHA-256 hashes. */
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client.ts";
import {
  findActiveKey,
  insertKey,
  type KeyRecord,
  type KeySummary,
  listKeys,
  revokeKey,
} from "../db/keys-repo.ts";
import { isoNow } from "./clock.ts";
import { ServiceError } from "./errors.ts";

export const KEY_PREFIX = "wck_";
export type Scope = "read" | "write";

export function hashKey(key: string): string {
  return new Bun.CryptoHasher("sha256").update(key).digest("hex");
}

/** Creates a key and returns it; the only time the key itself is ever shown. */
export function createKey(
  db: Db,
  rawName: string,
  scopes: readonly Scope[] = ["read", "write"],
): string {
  const name = rawName.trim();
  if (!name || name.length > 64) {
    throw new ServiceError("invalid_parameter", "a key name is 1 to 64 characters");
  }
  // A tab or newline would break `keys list`, one key per line.
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name)) {
    throw new ServiceError(
      "invalid_parameter",
      "a key name has no tabs, newlines or control characters",
    );
  }
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  const result = insertKey(db, {
    id: `key_${randomBytes(6).toString("hex")}`,
    name,
    prefix: key.slice(0, 10),
    keyHash: hashKey(key),
    scopes: scopes.join(","),
    createdAt: isoNow(),
  });
  if (!result.ok) {
    throw new ServiceError(
      "conflict",
      result.revoked
        ? `a key named ${JSON.stringify(name)} was revoked; names are not reused`
        : `a key named ${JSON.stringify(name)} exists already`,
    );
  }
  return key;
}

export function keySummaries(db: Db): KeySummary[] {
  return listKeys(db);
}

/** Revokes the active key of that name (stripped as `createKey` strips it). */
export function revokeKeyNamed(db: Db, name: string): boolean {
  return revokeKey(db, name.trim(), isoNow());
}

const bearer = { "WWW-Authenticate": "Bearer" };

/**
 * The key an `Authorization: Bearer` header names, null when there is no header. A header that
 * is present but wrong is a 401, never read as anonymous.
 */
export function authenticate(db: Db, authorization: string | null | undefined): KeyRecord | null {
  if (!authorization) return null;
  const space = authorization.indexOf(" ");
  const scheme = space < 0 ? authorization : authorization.slice(0, space);
  const token = space < 0 ? "" : authorization.slice(space + 1).trim();
  if (scheme.toLowerCase() !== "bearer" || !token) {
    throw new ServiceError("unauthorized", "use Authorization: Bearer <key>", { headers: bearer });
  }
  const record = findActiveKey(db, hashKey(token));
  if (!record)
    throw new ServiceError("unauthorized", "unknown or revoked key", { headers: bearer });
  return record;
}

export function requireScope(key: KeyRecord | null, scope: Scope): KeyRecord {
  if (!key) {
    throw new ServiceError(
      "unauthorized",
      "this operation needs an API key (Authorization: Bearer <key>)",
      { headers: bearer },
    );
  }
  if (!key.scopes.split(",").includes(scope)) {
    throw new ServiceError("forbidden", `this key lacks the ${JSON.stringify(scope)} right`);
  }
  return key;
}
