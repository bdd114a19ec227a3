from __future__ import annotations

import logging
import threading
from pathlib import Path

import numpy as np
import pytest

from webcorpus.index import embedder as emb
from webcorpus.index.embedder import DIM, Embedder


@pytest.fixture(scope="module")
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def embedder(model_cache: Path) -> Embedder:
    return Embedder(model_cache)


def test_shape_dtype_and_norm(embedder: Embedder) -> None:
    vecs = embedder.embed(["hello world", "", "a much longer sentence " * 200])
    assert vecs.shape == (3, DIM) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, DIM)
    q = embedder.embed_query("hello world")
    assert q.shape == (DIM,)
    # int8 activations are quantized per batch, so the same text in another batch moves a little.
    assert float(q @ vecs[0]) > 0.98
    assert embedder.name == "sentence-transformers/all-MiniLM-L6-v2" and embedder.dim == 384


def test_semantics(embedder: Embedder) -> None:
    docs = [
        "To install the package on Debian, run apt-get install python3.",
        "The quarterly revenue grew by twelve percent.",
        "Our cat sleeps on the sofa all afternoon.",
    ]
    vecs = embedder.embed(docs)
    for query, expected in [
        ("how do I set up python on linux", 0),
        ("financial results", 1),
        ("pets at home", 2),
    ]:
        assert int(np.argmax(vecs @ embedder.embed_query(query))) == expected


@pytest.fixture(scope="module")
def fp32(model_cache: Path) -> Embedder:
    return Embedder(model_cache, variant="fp32")


def test_batching_and_order_do_not_change_vectors(embedder: Embedder, fp32: Embedder) -> None:
    texts = [f"sentence {i} " + "word " * (i * 7 % 50) for i in range(20)]
    a = fp32.embed(texts, batch_size=32)
    np.testing.assert_allclose(a, fp32.embed(texts, batch_size=3), atol=1e-4)
    np.testing.assert_allclose(a, fp32.embed(texts[::-1], batch_size=5)[::-1], atol=1e-4)
    q = embedder.embed(texts, batch_size=32)
    r = embedder.embed(texts[::-1], batch_size=5)[::-1]
    assert np.all(np.sum(q * r, axis=1) > 0.98)  # int8: close, not identical
    with pytest.raises(TypeError):
        embedder.embed("not a list")


def test_truncates_at_256_tokens(embedder: Embedder) -> None:
    assert embedder.token_counts(["word " * 1000]) == [256]
    long_a = "apple " * 300 + "zebra " * 300
    long_b = "apple " * 300 + "quantum physics " * 300
    a, b = embedder.embed([long_a, long_b])
    assert float(a @ b) > 0.9999  # everything past the window is ignored


def test_fp32_graph_is_exact_and_int8_is_close(fp32: Embedder, embedder: Embedder) -> None:
    """The fp32 graph reproduces sentence-transformers' vectors (pinned from torch fp32)."""
    texts = ["The quick brown fox jumps over the lazy dog.", "webcorpus hybrid search"]
    exact = fp32.embed(texts)
    close = embedder.embed(texts)
    assert np.all(np.sum(exact * close, axis=1) > 0.985)
    # First components of sentence-transformers' fp32 vector for the first text.
    reference = np.array([0.04393357, 0.05893442, 0.04817836, 0.07754813, 0.02674444])
    np.testing.assert_allclose(exact[0, :5], reference, atol=1e-4)


def test_cached_build_is_reused_and_deterministic(model_cache: Path, embedder: Embedder) -> None:
    path = emb.cached_model_path(model_cache)
    assert path == embedder.model_path
    mtime = path.stat().st_mtime_ns
    assert emb.cached_model_path(model_cache).stat().st_mtime_ns == mtime
    rebuilt = emb.build_onnx_model(
        emb.model_dir() / "model.safetensors", model_cache / "again.onnx"
    )
    assert rebuilt.read_bytes() == path.read_bytes()


def test_thread_safe(embedder: Embedder) -> None:
    texts = [f"parallel text number {i}" for i in range(8)]
    expected = embedder.embed(texts)
    results: dict[int, np.ndarray] = {}

    def work(i: int) -> None:
        results[i] = embedder.embed(texts)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results.values():
        np.testing.assert_allclose(r, expected, atol=1e-6)


def test_get_embedder_builds_in_data_dir_once(
    monkeypatch: pytest.MonkeyPatch, model_cache: Path, embedder: Embedder
) -> None:
    from webcorpus.config import get_settings

    data_dir = model_cache.parent / "data"
    (data_dir / "models").mkdir(parents=True)
    # Reuse the module's build instead of quantizing again.
    (data_dir / "models" / embedder.model_path.name).write_bytes(embedder.model_path.read_bytes())
    monkeypatch.setenv("WEBCORPUS_DATA_DIR", str(data_dir))
    get_settings.cache_clear()
    monkeypatch.setattr(emb, "_instance", None)
    try:
        first = emb.get_embedder()
        assert emb.get_embedder() is first
        assert first.model_path.parent == data_dir / "models"
    finally:
        get_settings.cache_clear()


_CODE_HEAVY = [
    "Parsing > Options that start with a dash\n\n```\n>>> parser = argparse.ArgumentParser("
    "prog='PROG')\n>>> parser.add_argument('-x')\n>>> parser.add_argument('foo', nargs='?')\n"
    ">>> parser.parse_args(['-x', '-1'])\nNamespace(foo=None, x='-1')\n"
    ">>> parser.parse_args(['-x', '-1', '-5'])\nNamespace(foo='-5', x='-1')\n```",
    "Fixers\n\n```\n`operator.isCallable(obj)`\n`operator.sequenceIncludes(obj)`\n"
    "`operator.isSequenceType(obj)`\n`operator.isMappingType(obj)`\n`operator.isNumberType(obj)`\n"
    "`operator.repeat(obj, n)`\n`operator.irepeat(obj, n)`\n```",
    "Arrays > Methods\n\n```\n>>> from array import array\n>>> a = array('i', [1, 2, 3])\n"
    ">>> a.extend([4, 5])\n>>> a.insert(0, -1)\n>>> a.tolist()\n[-1, 1, 2, 3, 4, 5]\n"
    ">>> a.byteswap()\n>>> a.itemsize\n4\n```",
    "How do I read a file line by line?",
]


def test_int8_agrees_for_a_lone_text(fp32: Embedder, embedder: Embedder) -> None:
    """Every query is embedded alone. With 8-bit weights, AVX2's saturating int16 pair sums
    pulled code-heavy texts down to cosine ~0.976 against fp32 at batch 1; 7-bit weights keep
    them above 0.99."""
    for text in _CODE_HEAVY:
        assert float(fp32.embed_query(text) @ embedder.embed_query(text)) > 0.99, text[:40]


def test_building_the_int8_graph_logs_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """onnxruntime's quantizer talks on the root logger; a first `webcorpus serve` stays quiet."""
    caplog.set_level(logging.DEBUG)
    path = emb.build_onnx_model(emb.model_dir() / "model.safetensors", tmp_path / "m.onnx")
    assert path.stat().st_size > 1_000_000
    assert [r.getMessage()[:60] for r in caplog.records] == []
    assert not logging.getLogger().filters


def test_lanes_give_the_same_vectors(model_cache: Path) -> None:
    """Batches run side by side on lanes: same batches, same vectors, every text in its place."""
    texts = [f"lane text {i} " + "word " * (i * 5 % 40) for i in range(37)]
    one = Embedder(model_cache, threads=1).embed(texts, batch_size=4)
    two = Embedder(model_cache, threads=2).embed(texts, batch_size=4)
    np.testing.assert_array_equal(one, two)


def test_run_in_lanes_runs_items_side_by_side_once_each() -> None:
    # Two items meet at a barrier: it only opens if two lanes run at the same time.
    barrier = threading.Barrier(2, timeout=10)
    seen: list[int] = []
    lock = threading.Lock()

    def fn(item: int) -> None:
        if item < 2:
            barrier.wait()
        with lock:
            seen.append(item)

    emb.run_in_lanes(fn, list(range(9)), lanes=2)
    assert sorted(seen) == list(range(9))


def test_run_in_lanes_raises_the_first_error_after_all_lanes_stop() -> None:
    done: list[int] = []

    def fn(item: int) -> None:
        if item == 3:
            raise ValueError("bad item")
        done.append(item)

    with pytest.raises(ValueError, match="bad item"):
        emb.run_in_lanes(fn, list(range(50)), lanes=2)
    assert 3 not in done
    assert not [t for t in threading.enumerate() if t.name == "webcorpus-embed-lane"]


def test_int8_graph_keeps_outlier_channels_exact_and_quantizes_attention(
    embedder: Embedder, fp32: Embedder
) -> None:
    """For the packaged weights: the outlier feed-forward channels run on fp32 side paths, every
    other matmul (attention projections included) is int8, and the vectors stay close to fp32
    on prose and code alike."""
    import onnx

    graph = onnx.load(str(embedder.model_path)).graph
    ops = {n.name: n.op_type for n in graph.node}
    digest = emb._weights_digest(emb.model_dir() / "model.safetensors")
    layers = emb.OUTLIER_CHANNELS[digest]
    for i in layers:
        assert ops[f"l{i}_side_in"] == "MatMul" and ops[f"l{i}_side_o"] == "MatMul"
    assert sum(op == "QAttention" for op in ops.values()) == 6
    assert not any(op == "Attention" for op in ops.values())
    texts = [
        "PostgreSQL keeps old row versions until VACUUM reclaims them.",
        "def read_lines(path):\n    with open(path) as f:\n        return f.readlines()",
        "Die Paketverwaltung von Debian löst Abhängigkeiten selbst auf.",
    ]
    cos = np.sum(fp32.embed(texts) * embedder.embed(texts), axis=1)
    assert np.all(cos > 0.99), cos


def test_session_keeps_layer_norms_unfused(embedder: Embedder, tmp_path: Path) -> None:
    """onnxruntime's SkipLayerNormalization is slower here than the Add + LayerNormalization it
    would replace: neither the built graph nor the optimized session may contain it."""
    import onnx

    built = onnx.load(str(embedder.model_path))
    assert "SkipLayerNormalization" not in {n.op_type for n in built.graph.node}
    optimized = tmp_path / "optimized.onnx"
    emb.open_session(embedder.model_path, embedder.variant, optimized_path=optimized)
    ops = [n.op_type for n in onnx.load(str(optimized)).graph.node]
    assert "SkipLayerNormalization" not in ops
    assert ops.count("LayerNormalization") == 13  # embeddings + two per layer
