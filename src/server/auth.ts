/**
 * Keys on requests: `auth: "read"` (public unless WEBCORPUS_PUBLIC_READS=false) and
 * `auth: "write"` (a key with the write right) give the handler the caller's `key`.
 */
import { Elysia } from "elysia";
import type { Db } from "../db/client.ts";
import type { KeyRecord } from "../db/keys-repo.ts";
import { authenticate, requireScope } from "../services/keys-service.ts";

export function auth(db: Db, publicReads: boolean) {
  return new Elysia({ name: "auth" }).macro({
    auth: (scope: "read" | "write") => ({
      resolve({ request }): { key: KeyRecord | null } {
        const key = authenticate(db, request.headers.get("authorization"));
        if (scope === "write" || !publicReads) requireScope(key, scope);
        return { key };
      },
    }),
  });
}
