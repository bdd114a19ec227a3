#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh Debian 12 machine, then run it all.
# Usage: scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${WEBCORPUS_VENV:-.venv}"
bash scripts/install.sh dev

# System packages (nginx serves the real doc sites) and the Debian doc packages themselves.
bash scripts/setup-test-env.sh

export HF_HUB_OFFLINE=1
"$VENV/bin/ruff" check src tests bench
"$VENV/bin/ruff" format --check src tests bench
"$VENV/bin/mypy" src tests
"$VENV/bin/pytest" -q "$@"
