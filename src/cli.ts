#!/usr/bin/env bun
/** `bun run webcorpus COMMAND`: serve | keys | crawl | inspect | shelves. */
import { CliError } from "./cli/context.ts";
import { CRAWL_USAGE, crawlCommand } from "./cli/crawl-command.ts";
import { INSPECT_USAGE, inspectCommand } from "./cli/inspect-command.ts";
import { KEYS_USAGE, keysCommand } from "./cli/keys-command.ts";
import { SERVE_USAGE, serveCommand } from "./cli/serve-command.ts";
import { SHELVES_USAGE, shelvesCommand } from "./cli/shelves-command.ts";
import { VERSION } from "./version.ts";

const USAGE = `webcorpus ${VERSION}: index company websites into a searchable corpus

${SERVE_USAGE}
       run the API, the MCP endpoint and the crawl workers (data dir: WEBCORPUS_DATA_DIR)
${KEYS_USAGE}
${CRAWL_USAGE}
${INSPECT_USAGE}
${SHELVES_USAGE}`;

type Command = (argv: string[]) => number | Promise<number>;

const COMMAND_USAGE: Readonly<Record<string, string>> = {
  serve: SERVE_USAGE,
  keys: KEYS_USAGE,
  shelves: SHELVES_USAGE,
  crawl: CRAWL_USAGE,
  inspect: INSPECT_USAGE,
};

const COMMANDS: Readonly<Record<string, Command>> = {
  serve: serveCommand,
  keys: keysCommand,
  shelves: shelvesCommand,
  crawl: crawlCommand,
  inspect: inspectCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  if (name === "--version") {
    console.log(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`error: unknown command ${JSON.stringify(name)}\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(COMMAND_USAGE[name]);
    return 0;
  }
  try {
    return await command(rest);
  } catch (err) {
    if (err instanceof CliError) {
      console.error(err.message);
      return err.exitCode;
    }
    if (
      err instanceof TypeError &&
      "code" in err &&
      String(err.code).startsWith("ERR_PARSE_ARGS")
    ) {
      console.error(`error: ${err.message}\n\n${COMMAND_USAGE[name]}`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(Bun.argv.slice(2));
