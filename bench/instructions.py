"""Instructions per page of the processing stage, counted by valgrind: a drift-proof A/B figure.

    python bench/instructions.py [DIR] [--first 10] [--pages 50] [--src PATH]

This machine's speed drifts by ~1.7x within the hour, so CPU milliseconds taken at different
times cannot be compared. Instructions can: ``valgrind --tool=callgrind`` counts the same total
for the same code and input whatever else the machine is doing (two runs differ by <0.1%).
The script runs ``bench/extraction_pipeline.py`` under callgrind twice, side by side, on the
first ``--first`` pages and on the first ``--first + --pages`` pages of the same seeded sample,
and prints the difference divided by ``--pages``: start-up and model loading cancel out.

``--src``: the ``src`` folder to import webcorpus from (another checkout, e.g. a
``git worktree`` of the base commit), so that two versions are compared on the same pages.
Takes ~3 minutes (valgrind runs ~50x slower). Instructions are not time: a change that trades
instructions for cache misses or branch mispredictions can mislead, so confirm a win with
interleaved timed runs of ``bench/extraction_pipeline.py``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIR = Path.home() / ".cache/webcorpus-test/sites/v3/docs.python.org"


def _count(src: Path, directory: Path, limit: int, work: Path) -> int:
    out = work / f"callgrind.{limit}.out"
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    proc = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            str(ROOT / "bench/extraction_pipeline.py"),
            str(directory),
            "--limit",
            str(limit),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit(f"callgrind run failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return int(found[1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("directory", type=Path, nargs="?", default=DEFAULT_DIR)
    ap.add_argument("--first", type=int, default=10, help="pages whose cost is subtracted")
    ap.add_argument("--pages", type=int, default=50, help="pages measured")
    ap.add_argument("--src", type=Path, default=ROOT / "src")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    if not args.directory.is_dir():
        raise SystemExit(f"no such directory: {args.directory} (the test setup downloads it)")
    from concurrent.futures import ThreadPoolExecutor

    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(2) as pool:
        small, large = pool.map(
            lambda n: _count(args.src.resolve(), args.directory, n, Path(tmp)),
            (args.first, args.first + args.pages),
        )
    per_page = (large - small) / args.pages
    print(
        f"{per_page / 1e6:.2f} M instructions/page "
        f"(pages {args.first + 1}-{args.first + args.pages}, src {args.src})"
    )


if __name__ == "__main__":
    main()
