import { randomBytes } from "node:crypto";

/** `job_` + a time-sortable id: 12 hex digits of milliseconds, then 8 random hex digits. */
export function newJobId(now: number = Date.now()): string {
  return `job_${now.toString(16).padStart(12, "0")}${randomBytes(4).toString("hex")}`;
}

/** `pg_` + 16 lowercase hex chars of SHA-256 of the normalized URL: stable across recrawls. */
export function pageIdFor(normalizedUrl: string): string {
  return `pg_${new Bun.CryptoHasher("sha256").update(normalizedUrl).digest("hex").slice(0, 16)}`;
}

/** An id as a client may give it, with or without its prefix. */
export function withPrefix(prefix: "job_" | "pg_", id: string): string {
  const trimmed = id.trim();
  return trimmed.startsWith(prefix) ? trimmed : `${prefix}${trimmed}`;
}
