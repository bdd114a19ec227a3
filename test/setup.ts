/**
 * Preloaded before every test file (bunfig.toml): tests see no WEBCORPUS_ setting from the shell
 * that started them, so a developer's `.env` or exports never change what a test checks.
 */
for (const name of Object.keys(process.env)) {
  if (name.startsWith("WEBCORPUS_") && !name.startsWith("WEBCORPUS_TEST_")) {
    delete process.env[name];
  }
}
