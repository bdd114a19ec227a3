"""Outside peer for the extraction benchmarks: trafilatura's main text of each page.

Run by test/bench/extraction-f1.ts (and the company-pages eval) as a subprocess, in the venv
/work/cache/venv-trafilatura. Reads a JSON list of {"id", "path", "url"} on stdin (path: an HTML
file, gzipped when it ends in .gz), writes {"version", "modes": {mode: {id: text}}} on stdout.
Modes: "default" (trafilatura.extract, plain text, comments left out) and "precision"
(favor_precision=True), the two settings the reference's benchmark compared.
"""

import gzip
import json
import sys
import time

import trafilatura


def read(path: str) -> bytes:
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if path.endswith(".gz") else data


def main() -> None:
    pages = json.load(sys.stdin)
    modes = {"default": {}, "precision": {}}
    cpu = {"default": 0.0, "precision": 0.0}
    for page in pages:
        html = read(page["path"])
        for mode, out in modes.items():
            t0 = time.process_time()
            try:
                text = trafilatura.extract(
                    html,
                    url=page["url"],
                    include_comments=False,
                    favor_precision=mode == "precision",
                )
            except Exception:  # a page the peer fails on scores as empty, as ours would
                text = None
            cpu[mode] += time.process_time() - t0
            out[page["id"]] = text or ""
    n = max(len(pages), 1)
    json.dump(
        {
            "version": trafilatura.__version__,
            "modes": modes,
            "cpuMsPerPage": {m: c / n * 1000 for m, c in cpu.items()},
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
