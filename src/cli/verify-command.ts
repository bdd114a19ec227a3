/**
 * `webcorpus verify [--domain D] [--repair] [--json]`: every domain's search shard checked against
 * SQLite (src/search/shard-verify.ts); exit 0 when all match, 1 when one differs. Read-only
 * unless `--repair`, which holds SQLite's exclusive lock (refused while a server has the
 * database open) and rebuilds the shards that differ from SQLite, without the model.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DatabaseInUseError, type Db, openExclusive, openReader } from "../db/client.ts";
import { counted } from "../plural.ts";
import { checkDomain } from "../search/shard-files.ts";
import { openShardRegistry } from "../search/shard-registry.ts";
import {
  type DomainReport,
  repairShards,
  verifyDomain,
  verifyDomains,
} from "../search/shard-verify.ts";
import { vectorModelId } from "../search/vector-model.ts";
import { CliError, refuseDamaged, startConfig } from "./context.ts";
import { VERIFY_USAGE } from "./usage.ts";

/** Ids of one kind printed per domain; `--json` lists them all. */
const SHOWN = 20;

const HEALTH: Readonly<Record<string, string>> = {
  missing: "its snapshot is missing (logs without it, or a rebuild marker)",
  corrupt: "its snapshot failed its checks",
  outdated: "its snapshot was written by another format",
  torn: "a log ends in a damaged record (its last changes may be lost)",
};

function counts(c: DomainReport["sqlite"]): string {
  return `${counted(c.pages, "page")}, ${counted(c.chunks, "chunk")}, ${counted(c.vectors, "vector")}`;
}

/** The report of one domain as text: a line of counts, then a line per difference. */
export function domainLines(r: DomainReport): string[] {
  const lines = [
    `${r.domain}: SQLite ${counts(r.sqlite)}; shard ${r.health}, ${counts(r.shard)}; ${counted(r.differences, "difference")}`,
  ];
  if (r.health !== "ok") lines.push(`  shard ${r.health}: ${HEALTH[r.health] ?? r.health}`);
  const list = (what: string, ids: readonly string[]) => {
    for (const id of ids.slice(0, SHOWN)) lines.push(`  ${what}: ${id}`);
    if (ids.length > SHOWN) lines.push(`  … and ${ids.length - SHOWN} more (${what})`);
  };
  list("missing chunk (in SQLite, not in the shard)", r.missingChunks);
  list("orphan chunk (in the shard, not in SQLite)", r.orphanChunks);
  list("duplicate chunk", r.duplicateChunks);
  list(
    "chunk differs",
    r.chunksDiffer.map((d) => `${d.chunkId} (${d.fields.join(", ")})`),
  );
  list("page at another version", r.pagesStale);
  list("page facets differ", r.facetsDiffer);
  list("vector missing (in SQLite, not in the shard)", r.vectorsMissing);
  list("vector differs from SQLite's", r.vectorsDiffer);
  list("vector SQLite does not hold", r.vectorsExtra);
  return lines;
}

/** The report as `--json` prints it (snake_case, as the API). */
export function reportJson(r: DomainReport) {
  return {
    domain: r.domain,
    health: r.health,
    sqlite: r.sqlite,
    shard: r.shard,
    differences: r.differences,
    missing_chunks: r.missingChunks,
    orphan_chunks: r.orphanChunks,
    duplicate_chunks: r.duplicateChunks,
    chunks_differ: r.chunksDiffer.map((d) => ({ chunk_id: d.chunkId, fields: d.fields })),
    pages_stale: r.pagesStale,
    facets_differ: r.facetsDiffer,
    vectors_missing: r.vectorsMissing,
    vectors_differ: r.vectorsDiffer,
    vectors_extra: r.vectorsExtra,
  };
}

async function verifyAll(db: Db, dir: string, domains: readonly string[]) {
  const out: DomainReport[] = [];
  for (const domain of domains) out.push(await verifyDomain(db, dir, domain));
  return out;
}

export async function verifyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      domain: { type: "string" },
      repair: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new CliError(VERIFY_USAGE);
  if (values.domain !== undefined) {
    try {
      checkDomain(values.domain);
    } catch {
      throw new CliError(`error: --domain: ${JSON.stringify(values.domain)} is not a root domain`);
    }
  }
  const config = startConfig();
  if (!existsSync(config.databasePath))
    throw new CliError(`error: no database at ${config.databasePath} (WEBCORPUS_DATA_DIR?)`);
  // Shards are checked against SQLite, and repaired from it: a damaged database is refused first.
  refuseDamaged(config.databasePath);
  const dir = join(config.dataDir, "shards");
  const started = performance.now();
  let db: Db;
  try {
    db = values.repair ? openExclusive(config.databasePath) : openReader(config.databasePath);
  } catch (err) {
    if (err instanceof DatabaseInUseError) {
      throw new CliError(
        `error: ${err.message}: stop the server (or crawl) using it, then run verify --repair again; verify without --repair may run beside it`,
      );
    }
    throw err;
  }
  try {
    const domains = values.domain ? [values.domain] : verifyDomains(db, dir);
    let reports = await verifyAll(db, dir, domains);
    const repaired: string[] = [];
    if (values.repair) {
      const differing = reports.filter((r) => r.differences > 0).map((r) => r.domain);
      if (differing.length > 0) {
        const log = values.json ? () => {} : (line: string) => console.error(line);
        const registry = await openShardRegistry(config);
        await repairShards(
          {
            db,
            registry,
            vectorModel: vectorModelId(config.modelDir, config.embedVariant),
            log,
          },
          differing,
        );
        repaired.push(...differing);
        const again = new Map(
          (await verifyAll(db, dir, differing)).map((r) => [r.domain, r] as const),
        );
        reports = reports.map((r) => again.get(r.domain) ?? r);
      }
    }
    const differences = reports.reduce((n, r) => n + r.differences, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    if (values.json) {
      console.log(
        JSON.stringify(
          {
            domains: reports.map(reportJson),
            differences,
            repaired,
            elapsed_s: Number(seconds),
          },
          null,
          2,
        ),
      );
    } else {
      for (const r of reports) for (const line of domainLines(r)) console.log(line);
      const bad = reports.filter((r) => r.differences > 0).map((r) => r.domain);
      const fixed = repaired.length
        ? `; repaired ${counted(repaired.length, "domain")} (${repaired.join(", ")}) from SQLite and checked again`
        : "";
      const hint =
        bad.length && !values.repair
          ? `; \`webcorpus verify --repair\` (server stopped) rebuilds ${bad.length === 1 ? "it" : "them"} from SQLite`
          : "";
      console.log(
        `${counted(reports.length, "domain")} checked in ${seconds} s${fixed}: ${counted(differences, "difference")}${bad.length ? ` in ${bad.join(", ")}` : ""}${hint}`,
      );
    }
    return differences === 0 ? 0 : 1;
  } finally {
    db.$client.close();
  }
}
