"""The embedding stage: a thread that gives vectors to stored chunks, behind extraction.

Pages are searchable by text as soon as they are stored; this thread catches up in batches, so
the crawl never waits on the model. A job reaches its final state once its chunks have vectors.
The model's name and dimension are recorded in ``meta``: a different model clears the vectors
and re-embeds everything rather than mixing two vector spaces.
"""

from __future__ import annotations

import logging
import threading

import numpy as np

from webcorpus.config import Settings
from webcorpus.index.chunking import Chunk, embedding_text
from webcorpus.store import Store

log = logging.getLogger("webcorpus.embed")


class EmbeddingWorker:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._main, name="webcorpus-embed", daemon=True)
        self.embedded = 0
        self.error: str | None = None

    def start(self) -> None:
        self._thread.start()

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def _main(self) -> None:
        try:
            from webcorpus.index.embedder import Embedder

            embedder = Embedder(
                self.settings.models_path,
                variant=self.settings.embed_variant,
                threads=self.settings.embed_threads or None,
            )
            signature = f"{embedder.name}:{embedder.dim}:{embedder.variant}"
            if self.store.get_meta("embedding_model") != signature:
                self.store.reset_vectors()
                self.store.set_meta("embedding_model", signature)
            while not self._stop.is_set():
                rows = self.store.chunks_to_embed(self.settings.embed_batch)
                if not rows:
                    self._wake.wait(1.0)
                    self._wake.clear()
                    continue
                texts = [
                    embedding_text(Chunk(0, heading, text, 0), title)
                    for _, title, heading, text in rows
                ]
                vectors = embedder.embed(texts).astype(np.float32)
                self.store.save_vectors(
                    [(row[0], vectors[i].tobytes()) for i, row in enumerate(rows)]
                )
                self.embedded += len(rows)
        except Exception as exc:  # the crawl goes on; jobs stop waiting for vectors
            self.error = f"{type(exc).__name__}: {exc}"
            log.exception("embedding stage stopped")
