/** What every command starts with: the configuration (checked once) and the store. */
import { type Config, ConfigError, loadConfig, type SettingName } from "../config.ts";
import { checkStore, DamagedStoreError, openStore, type Store } from "../db/client.ts";

/** A command's failure with the one line it prints and its exit code. */
export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function startConfig(overrides: Partial<Record<SettingName, string>> = {}): Config {
  try {
    const { config, warnings } = loadConfig(Bun.env, { overrides });
    for (const line of warnings) console.error(`warning: ${line}`);
    return config;
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.warnings) console.error(`warning: ${line}`);
      throw new CliError(err.lines.map((l) => `error: ${l}`).join("\n"));
    }
    throw err;
  }
}

/**
 * The store, after an integrity check: a damaged database is refused before anything writes to
 * it, with what is wrong and how to recover, on one line.
 */
export function startStore(config: Config): Store {
  refuseDamaged(config.databasePath);
  return openStore(config.databasePath);
}

/** The integrity check of every command that opens the database: a CliError when damaged. */
export function refuseDamaged(path: string): void {
  try {
    checkStore(path);
  } catch (err) {
    if (!(err instanceof DamagedStoreError)) throw err;
    throw new CliError(damagedLine(err), 1);
  }
}

function damagedLine(err: DamagedStoreError): string {
  const first = (err.problems[0] ?? "unknown damage").replace(/\s+/g, " ").trim();
  const more = err.problems.length > 1 ? ` (and ${err.problems.length - 1} more)` : "";
  const db = err.path;
  const recovered = db.replace(/(\.db)?$/, "-recovered.db");
  return (
    `error: the database ${db} is damaged (quick_check: ${first}${more}); nothing was written to it. ` +
    `Recover its rows into a new file with \`sqlite3 ${db} ".recover" | sqlite3 ${recovered}\` and move that into place as ${db} (removing ${db}-wal and -shm), ` +
    "or restore a backup (docs/configuration.md, Backups while serving)"
  );
}
