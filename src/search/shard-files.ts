/**
 * Where a shard lives on disk and how its snapshot is written. Under `<data dir>/shards/`:
 * - `<root_domain>.shard`: the snapshot (shard-snapshot.ts), replaced whole: written to a
 *   temp file, fsynced, renamed over the old one, and the directory fsynced, so a crash leaves
 *   either the old snapshot or the new one, never a torn one (a torn temp file is never renamed);
 * - `<root_domain>.<generation>.log`: changes since the snapshot (shard-log.ts);
 * - `<root_domain>.shard.corrupt`: a snapshot that failed its checks, kept for inspection;
 * - `<root_domain>.rebuild`: the shard must be rebuilt from SQLite (it holds the reason); it
 *   stays until the rebuild is done, so a crash during a rebuild does not pass for a whole shard.
 * One file holds the snapshot, so no manifest is needed; the snapshot header names the first
 * log generation it does not include.
 */
import { closeSync, fsyncSync, openSync, readdirSync } from "node:fs";
import { open, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";

/** A root domain as a file name: lower-case letters, digits, dots and hyphens only. */
const DOMAIN = /^(?!-)[a-z0-9-]{1,63}(?:\.(?!-)[a-z0-9-]{1,63})*$/;

export function checkDomain(domain: string): string {
  if (!DOMAIN.test(domain) || domain.length > 253) {
    throw new RangeError(
      `${JSON.stringify(domain)} is not a root domain a shard can be named after`,
    );
  }
  return domain;
}

export function snapshotPath(dir: string, domain: string): string {
  return join(dir, `${checkDomain(domain)}.shard`);
}

export function logPath(dir: string, domain: string, generation: number): string {
  return join(dir, `${checkDomain(domain)}.${generation}.log`);
}

const LOG = /^(.+)\.(\d+)\.log$/;
const SNAPSHOT = /^(.+)\.(?:shard|rebuild)$/;

export function rebuildMarkerPath(dir: string, domain: string): string {
  return join(dir, `${checkDomain(domain)}.rebuild`);
}

/** The reason in the domain's rebuild marker, or null when there is none. */
export async function readRebuildMarker(dir: string, domain: string): Promise<string | null> {
  try {
    return (await readFile(rebuildMarkerPath(dir, domain), "utf8")).trim() || "missing";
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Writes the rebuild marker (fsynced) unless one is there. */
export async function writeRebuildMarker(
  dir: string,
  domain: string,
  reason: string,
): Promise<void> {
  const handle = await open(rebuildMarkerPath(dir, domain), "wx").catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === "EEXIST") return null;
      throw err;
    },
  );
  if (handle === null) return;
  await handle.writeFile(reason);
  await handle.sync();
  await handle.close();
  syncDir(dir);
}

/** Domains with a snapshot or a log in `dir`. */
export function domainsOnDisk(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const name of names) {
    const m = SNAPSHOT.exec(name) ?? LOG.exec(name);
    if (m?.[1] && DOMAIN.test(m[1])) out.add(m[1]);
  }
  return [...out].sort();
}

/** Log generations of `domain` present in `dir`, ascending. */
export function logGenerations(dir: string, domain: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    const m = LOG.exec(name);
    if (m && m[1] === domain) out.push(Number(m[2]));
  }
  return out.sort((a, b) => a - b);
}

/** The snapshot's bytes, or null when there is none. */
export async function readSnapshotFile(dir: string, domain: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(snapshotPath(dir, domain)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

let tempCounter = 0;

/** Writes `parts` (in order) as the domain's snapshot: temp file, fsync, rename, dir fsync. */
export async function writeSnapshotFile(
  dir: string,
  domain: string,
  parts: Uint8Array | readonly Uint8Array[],
): Promise<void> {
  const target = snapshotPath(dir, domain);
  const temp = `${target}.tmp-${process.pid}-${++tempCounter}`;
  const handle = await open(temp, "w");
  try {
    for (const part of parts instanceof Uint8Array ? [parts] : parts) {
      let at = 0;
      while (at < part.byteLength) {
        const { bytesWritten } = await handle.write(part, at, part.byteLength - at);
        at += bytesWritten;
      }
    }
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  await rename(temp, target);
  syncDir(dir);
}

/** fsync of a directory, so a rename or unlink in it survives a power cut. */
export function syncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Moves a snapshot that failed its checks aside (one `.corrupt` copy is kept). */
export async function quarantine(dir: string, domain: string): Promise<void> {
  const path = snapshotPath(dir, domain);
  await rename(path, `${path}.corrupt`).catch(() => rm(path, { force: true }));
}

/** Removes temp files of snapshots whose writer died before the rename. */
export async function removeTempFiles(dir: string): Promise<void> {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((n) => /\.shard\.tmp-\d+-\d+$/.test(n))
      .map((n) => rm(join(dir, n), { force: true })),
  );
}
