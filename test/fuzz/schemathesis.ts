/**
 * schemathesis against /api/openapi.json of a running server on the test corpus (two companies,
 * jobs, sitemaps, a shelf), with a write key: every operation gets generated valid and invalid
 * requests. Checks: no 5xx, every response matches the schema of its status, every status and
 * media type is declared, data the schema refuses is refused, 405s name their methods. Not run:
 * positive_data_acceptance (a root domain under a public suffix, a shelf's slug rules and the
 * vocabulary of a comma list are checked by the services; JSON Schema cannot say them all) and
 * unsupported_method (it sends TRACE with every parameter at its longest, which Bun's 16 KiB
 * request-head limit answers 431 before the app; 405s on every path are in the contract suite).
 *
 *   bun run test:schemathesis [--venv DIR] [--max-examples N] [--seed N]
 *
 * The venv holds `pip install schemathesis` (.ci/run makes it); default
 * ~/.cache/webcorpus-test/schemathesis-venv.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { live } from "../helpers/live.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    venv: {
      type: "string",
      default: join(homedir(), ".cache", "webcorpus-test", "schemathesis-venv"),
    },
    "max-examples": { type: "string", default: "40" },
    seed: { type: "string", default: "1" },
  },
});

export const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "negative_data_rejection",
  "allow_header_conformance",
];

// Text search only: vector and hybrid need the embedding model, whose speed is not this test's
// business (with embeddings off, mode=vector is a declared 400 and hybrid answers from text).
const srv = live({ CRAWL_RATE_PER_MINUTE: "1000000", EMBEDDINGS: "false" });
await srv.api.attachSearch();
try {
  const args = [
    join(values.venv, "bin", "schemathesis"),
    "--config-file",
    join(import.meta.dir, "schemathesis.toml"),
    "run",
    `${srv.base}/api/openapi.json`,
    "--checks",
    CHECKS.join(","),
    "--header",
    `Authorization: Bearer ${srv.api.key}`,
    "--max-examples",
    values["max-examples"],
    "--seed",
    values.seed,
    "--workers",
    "2",
    "--output-truncate",
    "true",
    "--suppress-health-check",
    "all",
  ];
  const proc = Bun.spawn(args, { stdout: "inherit", stderr: "inherit" });
  const code = await proc.exited;
  console.log(`schemathesis exited ${code}`);
  process.exitCode = code;
} finally {
  await srv.close();
}
