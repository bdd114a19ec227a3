/**
 * The shards of a data dir, one per root domain: loaded on first use (snapshot, then the logs
 * after it), evicted least recently used first when their estimated memory passes the budget
 * (`WEBCORPUS_SHARD_MEMORY_MB`), changed through logged operations, snapshotted when a log grows
 * past `snapshotLogBytes`, on eviction and on `flush()`.
 *
 * What a rebuild needs (the driver lives in services/): `check(domain)` says whether the files
 * are whole without loading them, `health(domain)` what loading found (`missing`: no snapshot
 * and no complete log, `corrupt` or `outdated`: the snapshot failed its checks or was written by
 * another format and was set aside, `torn`: a log ended in a damaged record, so its last changes
 * may be lost), `pageVersions(domain)` what the shard holds, `upsertPages` / `removePages` to
 * bring it level with SQLite, then `markRebuilt(domain)`. Until then a `<domain>.rebuild` marker
 * keeps the verdict across restarts (a new domain starts `missing` too: its rebuild is empty).
 * `drop(domain)` starts over.
 */
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../config.ts";
import { type ChunkVector, type PageFacets, type PageInput, Shard } from "./shard.ts";
import {
  domainsOnDisk,
  logGenerations,
  logPath,
  readRebuildMarker,
  readSnapshotFile,
  rebuildMarkerPath,
  removeTempFiles,
  snapshotPath,
  syncDir,
  writeSnapshotFile,
} from "./shard-files.ts";
import { applyRecord, asHealth, loadShard, type ShardHealth } from "./shard-loader.ts";
import { type LogRecord, LogWriter } from "./shard-log.ts";
import {
  decodeSnapshot,
  encodeSnapshot,
  isCurrent,
  joinParts,
  readSnapshotHeader,
} from "./shard-snapshot.ts";

export type { ShardHealth };

export interface ShardRegistryOptions {
  /** `<data dir>/shards`. */
  readonly dir: string;
  readonly memoryBudgetBytes: number;
  /** A log past this many bytes gets its shard snapshotted (default 64 MiB). */
  readonly snapshotLogBytes?: number;
}

interface Entry {
  shard: Shard;
  health: ShardHealth;
  log: LogWriter | null;
  /** Generation of the log the next change goes to. */
  generation: number;
  dirty: boolean;
  changes: number;
  lastUsed: number;
  snapshotting: Promise<void>;
}

export class ShardRegistry {
  readonly dir: string;
  readonly memoryBudgetBytes: number;
  readonly #snapshotLogBytes: number;
  readonly #entries = new Map<string, Entry>();
  readonly #loading = new Map<string, Promise<Entry>>();
  #clock = 0;
  #backgroundError: Error | null = null;

  constructor(options: ShardRegistryOptions) {
    this.dir = options.dir;
    this.memoryBudgetBytes = options.memoryBudgetBytes;
    this.#snapshotLogBytes = options.snapshotLogBytes ?? 64 * 1024 * 1024;
    mkdirSync(this.dir, { recursive: true });
  }

  /** A registry over `dir`, with temp files of interrupted snapshot writes removed. */
  static async open(options: ShardRegistryOptions): Promise<ShardRegistry> {
    const registry = new ShardRegistry(options);
    await removeTempFiles(registry.dir);
    return registry;
  }

  /** Domains with files on disk or a shard in memory. */
  domains(): string[] {
    return [...new Set([...domainsOnDisk(this.dir), ...this.#entries.keys()])].sort();
  }

  /** Domains whose shard is in memory. */
  loaded(): string[] {
    return [...this.#entries.keys()].sort();
  }

  /** The domain's shard, loaded if needed (an empty one for a new domain). */
  async shard(domain: string): Promise<Shard> {
    return (await this.#entry(domain)).shard;
  }

  /** What loading the shard found; undefined when it is not loaded. */
  health(domain: string): ShardHealth | undefined {
    return this.#entries.get(domain)?.health;
  }

  /** Whether the domain's files would load whole, without loading them. */
  async check(domain: string): Promise<ShardHealth> {
    const marker = await readRebuildMarker(this.dir, domain);
    if (marker !== null) return asHealth(marker);
    const bytes = await readSnapshotFile(this.dir, domain);
    if (bytes === null) {
      return logGenerations(this.dir, domain)[0] === 0 ? "ok" : "missing";
    }
    try {
      return isCurrent(readSnapshotHeader(bytes)) ? "ok" : "outdated";
    } catch {
      return "corrupt";
    }
  }

  /** The rebuild is done: snapshot the shard and lift the marker. */
  async markRebuilt(domain: string): Promise<void> {
    const entry = await this.#entry(domain);
    entry.dirty = true;
    await this.snapshot(domain);
    await rm(rebuildMarkerPath(this.dir, domain), { force: true });
    syncDir(this.dir);
    entry.health = "ok";
  }

  async pageVersions(domain: string): Promise<Map<string, string>> {
    return (await this.shard(domain)).pageVersions();
  }

  async upsertPages(domain: string, pages: readonly PageInput[]): Promise<void> {
    const entry = await this.#entry(domain);
    for (const page of pages) this.#apply(domain, entry, { op: "upsert", page });
    await this.#enforceBudget(domain);
  }

  async removePages(domain: string, pageIds: readonly string[]): Promise<void> {
    const entry = await this.#entry(domain);
    for (const pageId of pageIds) this.#apply(domain, entry, { op: "remove", pageId });
  }

  async setFacets(domain: string, pageId: string, facets: PageFacets): Promise<void> {
    this.#apply(domain, await this.#entry(domain), { op: "facets", pageId, facets });
  }

  async setVectors(domain: string, vectors: readonly ChunkVector[]): Promise<void> {
    this.#apply(domain, await this.#entry(domain), { op: "vectors", vectors });
  }

  /** Writes the shard's snapshot if it changed since the last one. */
  async snapshot(domain: string): Promise<void> {
    const entry = this.#entries.get(domain);
    if (!entry) return;
    entry.snapshotting = entry.snapshotting.then(() => this.#snapshot(domain, entry));
    await entry.snapshotting;
  }

  /** Snapshots every changed shard; rethrows a failure of a background snapshot. */
  async flush(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((d) => this.snapshot(d)));
    const error = this.#backgroundError;
    this.#backgroundError = null;
    if (error) throw error;
  }

  /** Snapshots (if changed) and unloads the shard. */
  async evict(domain: string): Promise<void> {
    const entry = this.#entries.get(domain);
    if (!entry) return;
    await this.snapshot(domain);
    entry.log?.close();
    entry.log = null;
    if (this.#entries.get(domain) === entry) {
      this.#entries.delete(domain);
      entry.shard.dispose();
    }
  }

  /** Unloads the shard and deletes its files (a rebuild starts from nothing). */
  async drop(domain: string): Promise<void> {
    const entry = this.#entries.get(domain);
    if (entry) {
      await entry.snapshotting.catch(() => undefined);
      entry.log?.close();
      this.#entries.delete(domain);
      entry.shard.dispose();
    }
    const files = [
      snapshotPath(this.dir, domain),
      `${snapshotPath(this.dir, domain)}.corrupt`,
      rebuildMarkerPath(this.dir, domain),
    ];
    for (const g of logGenerations(this.dir, domain)) files.push(logPath(this.dir, domain, g));
    await Promise.all(files.map((f) => rm(f, { force: true })));
    syncDir(this.dir);
  }

  async close(): Promise<void> {
    await this.flush();
    for (const entry of this.#entries.values()) {
      entry.log?.close();
      entry.shard.dispose();
    }
    this.#entries.clear();
  }

  /** Estimated heap bytes of the loaded shards. */
  get estimatedBytes(): number {
    let total = 0;
    for (const entry of this.#entries.values()) total += entry.shard.estimatedBytes;
    return total;
  }

  #apply(domain: string, entry: Entry, record: LogRecord): void {
    applyRecord(entry.shard, record);
    entry.log ??= new LogWriter(logPath(this.dir, domain, entry.generation), entry.generation);
    entry.log.append(record);
    entry.dirty = true;
    entry.changes++;
    entry.lastUsed = ++this.#clock;
    if (entry.log.bytes > this.#snapshotLogBytes) {
      this.snapshot(domain).catch((err: Error) => {
        this.#backgroundError = err;
      });
    }
  }

  async #snapshot(domain: string, entry: Entry): Promise<void> {
    if (!entry.dirty) return;
    // Synchronous up to the encoding: changes made while the file is written go to a new log.
    const raw = entry.shard.save();
    const sealed = entry.log;
    const nextLog = entry.generation + 1;
    entry.log = null;
    entry.generation = nextLog;
    entry.dirty = false;
    sealed?.close();
    const bytes = await encodeSnapshot(raw, nextLog);
    const changes = entry.changes;
    try {
      await writeSnapshotFile(this.dir, domain, bytes);
    } catch (err) {
      entry.dirty = true;
      throw err;
    }
    for (const g of logGenerations(this.dir, domain)) {
      if (g < nextLog) await rm(logPath(this.dir, domain, g), { force: true });
    }
    syncDir(this.dir);
    // Removed chunks leave dead slots and unreclaimed internal ids: reload from the snapshot
    // when they are many and nothing changed meanwhile.
    if (entry.shard.deadSlots > entry.shard.chunks / 4 && entry.changes === changes) {
      const { raw: compact } = await decodeSnapshot(joinParts(bytes));
      if (entry.changes === changes) {
        const old = entry.shard;
        entry.shard = Shard.fromRaw(domain, compact);
        old.dispose();
      }
    }
  }

  async #entry(domain: string): Promise<Entry> {
    const known = this.#entries.get(domain);
    if (known) {
      known.lastUsed = ++this.#clock;
      return known;
    }
    let loading = this.#loading.get(domain);
    if (!loading) {
      loading = this.#load(domain).finally(() => this.#loading.delete(domain));
      this.#loading.set(domain, loading);
    }
    const entry = await loading;
    await this.#enforceBudget(domain);
    return entry;
  }

  async #load(domain: string): Promise<Entry> {
    const { shard, health, generation } = await loadShard(this.dir, domain);
    const entry: Entry = {
      shard,
      health,
      log: null,
      generation,
      dirty: false,
      changes: 0,
      lastUsed: ++this.#clock,
      snapshotting: Promise.resolve(),
    };
    this.#entries.set(domain, entry);
    return entry;
  }

  async #enforceBudget(keep: string): Promise<void> {
    while (this.#entries.size > 1 && this.estimatedBytes > this.memoryBudgetBytes) {
      let victim: string | null = null;
      let oldest = Number.POSITIVE_INFINITY;
      for (const [domain, entry] of this.#entries) {
        if (domain !== keep && entry.lastUsed < oldest) {
          oldest = entry.lastUsed;
          victim = domain;
        }
      }
      if (victim === null) return;
      await this.evict(victim);
    }
  }
}

/** The service's registry: `<data dir>/shards`, budget `WEBCORPUS_SHARD_MEMORY_MB`. */
export function openShardRegistry(
  config: Pick<Config, "dataDir" | "shardMemoryMb">,
): Promise<ShardRegistry> {
  return ShardRegistry.open({
    dir: join(config.dataDir, "shards"),
    memoryBudgetBytes: config.shardMemoryMb * 2 ** 20,
  });
}
