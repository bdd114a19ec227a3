/**
 * The model's tokenizer as fastembed runs it (Hugging Face tokenizers, native), untruncated and
 * unpadded: the ground truth the TypeScript word-piece counter must match.
 */
import { Tokenizer } from "@anush008/tokenizers";
import { MODEL_DIR } from "../../src/search/model-files.ts";

export function nativeTokenizer(): Tokenizer {
  const tokenizer = Tokenizer.fromFile(`${MODEL_DIR}/tokenizer.json`);
  tokenizer.disablePadding();
  tokenizer.disableTruncation();
  return tokenizer;
}

/** Word pieces per text, with or without [CLS]/[SEP]. */
export async function nativeCounts(
  tokenizer: Tokenizer,
  texts: readonly string[],
  special = false,
): Promise<number[]> {
  const encodings = await tokenizer.encodeBatch([...texts], { addSpecialTokens: special });
  return encodings.map((e) => e.getLength());
}
