import { parseArgs } from "node:util";
import { ServiceError } from "../services/errors.ts";
import { createKey, keySummaries, revokeKeyNamed } from "../services/keys-service.ts";
import { CliError, startConfig, startStore } from "./context.ts";
import { KEYS_USAGE } from "./usage.ts";

export function keysCommand(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { "read-only": { type: "boolean", default: false } },
    allowPositionals: true,
  });
  const [sub, name, ...rest] = positionals;
  if (!sub || rest.length > 0 || (sub !== "list" && !name)) throw new CliError(KEYS_USAGE);
  const store = startStore(startConfig());
  try {
    switch (sub) {
      case "create": {
        const key = createKey(
          store.write,
          name ?? "",
          values["read-only"] ? ["read"] : ["read", "write"],
        );
        console.log(key);
        return 0;
      }
      case "list":
        for (const k of keySummaries(store.read)) {
          const state = k.revokedAt ? `revoked ${k.revokedAt}` : "active";
          console.log([k.name, `${k.prefix}…`, k.scopes, k.createdAt, state].join("\t"));
        }
        return 0;
      case "revoke":
        if (revokeKeyNamed(store.write, name ?? "")) {
          console.error(`revoked ${name}`);
          return 0;
        }
        console.error(`error: no active key named ${JSON.stringify(name)}`);
        return 1;
      default:
        throw new CliError(KEYS_USAGE);
    }
  } catch (err) {
    if (err instanceof ServiceError) throw new CliError(`error: ${err.message}`);
    throw err;
  } finally {
    store.close();
  }
}
