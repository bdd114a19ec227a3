/**
 * Preloaded before every test file (bunfig.toml). Integration tests start real servers and crawl
 * real sites on loopback, so a test gets 60 s rather than bun's 5. Tests see no WEBCORPUS_
 * setting from the shell that started them, so a developer's exports never change what a test
 * checks.
 */
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);

for (const name of Object.keys(process.env)) {
  if (name.startsWith("WEBCORPUS_") && !name.startsWith("WEBCORPUS_TEST_")) {
    delete process.env[name];
  }
}
