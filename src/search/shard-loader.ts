/**
 * Loading a shard from its files (see shard-files.ts): the snapshot, then every log generation
 * it does not include, in order. What it finds becomes the shard's health; anything but `ok`
 * leaves a rebuild marker, and a marker already there decides the health until the rebuild is
 * done (ShardRegistry.markRebuilt).
 */
import { rm } from "node:fs/promises";
import { Shard } from "./shard.ts";
import {
  logGenerations,
  logPath,
  quarantine,
  readRebuildMarker,
  readSnapshotFile,
  writeRebuildMarker,
} from "./shard-files.ts";
import { type LogRecord, readLog } from "./shard-log.ts";
import { decodeSnapshot, isCurrent, readSnapshotHeader, SnapshotError } from "./shard-snapshot.ts";

export type ShardHealth = "ok" | "missing" | "corrupt" | "outdated" | "torn";

export interface LoadedShard {
  readonly shard: Shard;
  readonly health: ShardHealth;
  /** The log generation new changes go to: a fresh one, never after a torn record. */
  readonly generation: number;
}

/**
 * `readOnly` (webcorpus verify): the same reading, but nothing on disk is touched: a snapshot
 * that fails its checks is not set aside, the logs after it are not deleted (still not
 * replayed), no rebuild marker is written.
 */
export async function loadShard(
  dir: string,
  domain: string,
  { readOnly = false }: { readonly readOnly?: boolean } = {},
): Promise<LoadedShard> {
  const bytes = await readSnapshotFile(dir, domain);
  const generations = logGenerations(dir, domain);
  let shard = new Shard(domain);
  let health: ShardHealth = "ok";
  let nextLog = 0;
  if (bytes !== null) {
    try {
      const { header, raw } = await decodeSnapshot(bytes);
      shard = Shard.fromRaw(domain, raw);
      nextLog = header.nextLog;
    } catch (err) {
      if (!(err instanceof SnapshotError)) throw err;
      let outdated = false;
      try {
        outdated = !isCurrent(readSnapshotHeader(bytes));
      } catch {}
      health = outdated ? "outdated" : "corrupt";
      if (!readOnly) {
        await quarantine(dir, domain);
        // Logs continue a snapshot that is gone: replaying them alone gives a partial shard.
        for (const g of generations) await rm(logPath(dir, domain, g), { force: true });
      }
      generations.length = 0;
    }
  } else {
    // No file at all is a new domain's empty shard: nothing was lost, nothing to rebuild (a
    // marker here outlived every crawl of a new domain and made the next start re-embed it all).
    // Logs without their snapshot continue one that is gone.
    nextLog = generations[0] ?? 0;
    if (nextLog !== 0) health = "missing";
  }
  for (const g of generations) {
    if (g < nextLog) continue;
    const { records, torn } = await readLog(logPath(dir, domain, g));
    for (const record of records) applyRecord(shard, record);
    if (torn && health === "ok") health = "torn";
  }
  const marker = await readRebuildMarker(dir, domain);
  if (marker !== null) health = asHealth(marker);
  else if (health !== "ok" && !readOnly) await writeRebuildMarker(dir, domain, health);
  const last = generations[generations.length - 1];
  return { shard, health, generation: Math.max(nextLog, last === undefined ? 0 : last + 1) };
}

export function asHealth(reason: string): ShardHealth {
  return (
    (["missing", "corrupt", "outdated", "torn"] as const).find((h) => h === reason) ?? "missing"
  );
}

export function applyRecord(shard: Shard, record: LogRecord): void {
  switch (record.op) {
    case "upsert":
      shard.upsertPage(record.page);
      return;
    case "remove":
      shard.removePage(record.pageId);
      return;
    case "facets":
      shard.setFacets(record.pageId, record.facets);
      return;
    case "vectors":
      shard.setVectors(record.vectors);
      return;
  }
}
