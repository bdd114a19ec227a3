/** What every command starts with: the configuration (checked once) and the store. */
import { type Config, ConfigError, loadConfig, type SettingName } from "../config.ts";
import { openStore, type Store } from "../db/client.ts";

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

export function startStore(config: Config): Store {
  return openStore(config.databasePath);
}
