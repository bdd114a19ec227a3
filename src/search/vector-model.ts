/**
 * The embedding model's identity in vector keys (vector-codec.ts): its name, the variant, and a
 * digest of the files that decide its vectors (graphs, external weights, tokenizer), so that
 * changed model files never reuse vectors stored under the old ones.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type EmbedVariant, MODEL_NAME, modelFiles } from "./model-files.ts";

/** External weights beside an ONNX graph (`weights.bin`, `model.onnx_data`). */
const WEIGHTS = /\.(bin|onnx_data|data)$/;

/** Without the model files (embeddings off), an identity no stored vector has. */
export function vectorModelId(modelDir: string | null, variant: EmbedVariant): string {
  let files: ReturnType<typeof modelFiles>;
  try {
    files = modelFiles(modelDir, variant);
  } catch {
    return `${MODEL_NAME}/${variant}/no-files`;
  }
  const paths = new Set([files.model, files.precise, files.tokenizer]);
  for (const name of readdirSync(files.dir).sort()) {
    if (WEIGHTS.test(name)) paths.add(join(files.dir, name));
  }
  const hasher = new Bun.CryptoHasher("sha256");
  for (const path of paths) hasher.update(readFileSync(path));
  return `${MODEL_NAME}/${variant}/${hasher.digest("hex").slice(0, 16)}`;
}
