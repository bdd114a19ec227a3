#!/usr/bin/env bash
# Builds webcorpus as a single executable with `bun build --compile`: dist/webcorpus, plus
# dist/lib/ with the ONNX Runtime shared library the embedding model needs (the N-API addon is
# embedded in the executable; the plain .so it links against cannot be, so it ships beside it:
# run with LD_LIBRARY_PATH=<dir>/lib). Embedded: the code, the drizzle migrations, Swagger UI's
# script and stylesheet. Not embedded: the embedding model files (WEBCORPUS_MODEL_DIR) and
# Chromium for screenshots (WEBCORPUS_CHROMIUM_PATH), which are data and a separate program.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
mkdir -p "$out/lib"

# Worker entry points (crawl, embedding) are loaded by URL at run time: they must be entry
# points of the build too. Every src/**/*-worker.ts is included.
mapfile -t workers < <(find src -name '*-worker.ts' | sort)
bun build --compile --minify --sourcemap src/cli.ts "${workers[@]}" --outfile "$out/webcorpus"

onnx=node_modules/onnxruntime-node/bin/napi-v3/linux/x64
if [ -d "$onnx" ]; then
  cp "$onnx"/libonnxruntime.so* "$out/lib/"
fi
echo "built $out/webcorpus ($(du -h "$out/webcorpus" | cut -f1)); libraries in $out/lib"
echo "run: LD_LIBRARY_PATH=$out/lib WEBCORPUS_DATA_DIR=/srv/webcorpus $out/webcorpus serve"
