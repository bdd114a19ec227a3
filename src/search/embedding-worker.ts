/**
 * Worker entry: one embedder (single-threaded onnxruntime sessions) answering `EmbeddingRequest`s
 * in order. Started by `EmbeddingPool`, one per lane; the query lane loads the query graph alone.
 */
import { type Embedder, loadEmbedder, loadQueryEmbedder, type QueryEmbedder } from "./embedder.ts";
import type { EmbeddingRequest, EmbeddingResponse } from "./embedding-messages.ts";

declare const self: Worker;

let embedder: Promise<Embedder | QueryEmbedder> | null = null;

function post(message: EmbeddingResponse, transfer: ArrayBuffer[] = []): void {
  self.postMessage(message, transfer);
}

function flatten(vectors: readonly Float32Array[], dim: number): Float32Array<ArrayBuffer> {
  const flat = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    flat.set(v, i * dim);
  });
  return flat;
}

async function handle(message: EmbeddingRequest): Promise<void> {
  switch (message.type) {
    case "init": {
      embedder = message.settings.queriesOnly
        ? loadQueryEmbedder(message.settings)
        : loadEmbedder(message.settings);
      const ready = await embedder;
      const check = "check" in ready ? ready.check : null;
      post({ type: "ready", model: ready.name, dim: ready.dim, check });
      return;
    }
    case "embed": {
      if (embedder === null) throw new Error("embed before init");
      const model = await embedder;
      let vectors: Float32Array[];
      if (message.kind === "query") vectors = [await model.embedQuery(message.texts[0] ?? "")];
      else if ("embedPassages" in model) vectors = await model.embedPassages(message.texts);
      else throw new Error("passages sent to the query lane");
      const flat = flatten(vectors, model.dim);
      post({ type: "vectors", id: message.id, vectors: flat }, [flat.buffer]);
      return;
    }
    case "close":
      post({ type: "closed" }); // after every earlier request: the pool may terminate us now
      return;
  }
}

// Requests are handled one at a time, in order: a session runs one batch at a time anyway.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<EmbeddingRequest>) => {
  const message = event.data;
  queue = queue.then(() =>
    handle(message).catch((error: unknown) => {
      const id = message.type === "embed" ? message.id : null;
      post({ type: "error", id, message: error instanceof Error ? error.message : String(error) });
    }),
  );
};
