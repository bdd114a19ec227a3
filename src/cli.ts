#!/usr/bin/env bun
/** `bun run webcorpus COMMAND`: serve | keys | crawl | inspect | shelves. */
import { CliError } from "./cli/context.ts";
import { CRAWL_USAGE, INSPECT_USAGE, KEYS_USAGE, SERVE_USAGE, SHELVES_USAGE } from "./cli/usage.ts";
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

// Loaded on use: a crawl needs neither the HTTP server nor the extraction stack on its thread.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  serve: async () => (await import("./cli/serve-command.ts")).serveCommand,
  keys: async () => (await import("./cli/keys-command.ts")).keysCommand,
  shelves: async () => (await import("./cli/shelves-command.ts")).shelvesCommand,
  crawl: async () => (await import("./cli/crawl-command.ts")).crawlCommand,
  inspect: async () => (await import("./cli/inspect-command.ts")).inspectCommand,
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
    console.log(COMMAND_USAGE[name]);
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
      console.error(`error: ${err.message}\n\n${COMMAND_USAGE[name]}`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(Bun.argv.slice(2));
