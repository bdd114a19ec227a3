#!/usr/bin/env bun
/** `bun run webcorpus COMMAND`: serve | keys | crawl | inspect | shelves | verify. */
import { CliError } from "./cli/context.ts";
import {
  CRAWL_HELP,
  INSPECT_HELP,
  KEYS_HELP,
  SERVE_HELP,
  SHELVES_HELP,
  VERIFY_HELP,
} from "./cli/usage.ts";
import { VERSION } from "./version.ts";

const USAGE = `webcorpus ${VERSION}: index company websites into a searchable corpus

usage: webcorpus COMMAND [OPTIONS]   (webcorpus COMMAND --help explains a command's options)

commands:
  serve      run the API, Swagger UI (/api/docs), MCP (/api/mcp) and the crawl workers
  crawl      crawl one domain in the foreground with a progress line
  inspect    show what the crawler would store for one page (a URL or a saved file)
  keys       create, list and revoke API keys
  shelves    group companies on shelves (collections) and crawl them
  verify     check the search shards against SQLite (--repair rebuilds those that differ)

options:
  -h, --help     show this help
  --version      print the version

Settings are WEBCORPUS_* environment variables (or .env); see docs/configuration.md.`;

type Command = (argv: string[]) => number | Promise<number>;

const COMMAND_HELP: Readonly<Record<string, string>> = {
  serve: SERVE_HELP,
  keys: KEYS_HELP,
  shelves: SHELVES_HELP,
  crawl: CRAWL_HELP,
  inspect: INSPECT_HELP,
  verify: VERIFY_HELP,
};

// Loaded on use: a crawl needs neither the HTTP server nor the extraction stack on its thread.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  serve: async () => (await import("./cli/serve-command.ts")).serveCommand,
  keys: async () => (await import("./cli/keys-command.ts")).keysCommand,
  shelves: async () => (await import("./cli/shelves-command.ts")).shelvesCommand,
  crawl: async () => (await import("./cli/crawl-command.ts")).crawlCommand,
  inspect: async () => (await import("./cli/inspect-command.ts")).inspectCommand,
  verify: async () => (await import("./cli/verify-command.ts")).verifyCommand,
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
  const load = COMMANDS[name];
  if (!load) {
    console.error(`error: unknown command ${JSON.stringify(name)}\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(COMMAND_HELP[name]);
    return 0;
  }
  const command = await load();
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
      console.error(`error: ${err.message}\n\n${COMMAND_HELP[name]}`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(Bun.argv.slice(2));
