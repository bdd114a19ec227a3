/**
 * Preloaded before every test file (bunfig.toml): tests see no WEBCORPUS_ setting from the shell
 * that started them, so a developer's exports never change what a test checks. (Test files that
 * start real servers set their own timeout with setDefaultTimeout: it applies per file, and
 * bunfig.toml has no timeout key.)
 */
for (const name of Object.keys(process.env)) {
  if (name.startsWith("WEBCORPUS_") && !name.startsWith("WEBCORPUS_TEST_")) {
    delete process.env[name];
  }
}
