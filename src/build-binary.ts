/**
 * Builds webcorpus as a single executable with `bun build --compile`: `<out>/webcorpus`, plus
 * `<out>/lib/` with the ONNX Runtime shared library the embedding model needs (the N-API addon
 * is embedded in the executable; the plain .so it links against cannot be, so it ships beside
 * it: run with LD_LIBRARY_PATH=<out>/lib). Embedded: the code, the drizzle migrations, Swagger
 * UI's script and stylesheet. Beside it: the embedding model files in `<out>/models` (data, not
 * code; WEBCORPUS_MODEL_DIR may point elsewhere) and the ONNX Runtime library. Not included:
 * Chromium for screenshots (WEBCORPUS_CHROMIUM_PATH), a separate program.
 *
 *   bun run build:binary [OUT_DIR]
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..");
const out = Bun.argv[2] ?? join(root, "dist");
mkdirSync(join(out, "lib"), { recursive: true });

/** Worker entry points (crawl, embedding) are loaded by URL at run time: entry points too. */
function workers(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? workers(join(dir, e.name))
        : e.name.endsWith("-worker.ts")
          ? [join(dir, e.name)]
          : [],
    )
    .sort();
}

const entries = [join(root, "src/cli.ts"), ...workers(join(root, "src"))].map((p) =>
  relative(root, p),
);
const build = Bun.spawnSync(
  [
    "bun",
    "build",
    "--compile",
    "--minify",
    "--sourcemap",
    ...entries,
    "--outfile",
    join(out, "webcorpus"),
  ],
  {
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  },
);
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);

// bin/napi-v3 up to onnxruntime-node 1.21, bin/napi-v6 since (package.json pins 1.30.0).
const napi = join(root, "node_modules/onnxruntime-node/bin");
const onnx = existsSync(napi)
  ? readdirSync(napi)
      .filter((d) => d.startsWith("napi-v"))
      .map((d) => join(napi, d, "linux/x64"))
      .find((d) => existsSync(d))
  : undefined;
if (onnx !== undefined) {
  for (const name of readdirSync(onnx))
    if (name.startsWith("libonnxruntime.so"))
      copyFileSync(join(onnx, name), join(out, "lib", name));
}
// The embedding model's files (data, not code): looked for beside the executable.
cpSync(join(root, "data/models/all-minilm-l6-v2"), join(out, "models/all-minilm-l6-v2"), {
  recursive: true,
});
const mb = (statSync(join(out, "webcorpus")).size / 2 ** 20).toFixed(0);
console.log(
  `built ${join(out, "webcorpus")} (${mb} MB); libraries in ${join(out, "lib")}, the model in ${join(out, "models")}`,
);
console.log(
  `run: LD_LIBRARY_PATH=${join(out, "lib")} WEBCORPUS_DATA_DIR=/srv/webcorpus ${join(out, "webcorpus")} serve`,
);
