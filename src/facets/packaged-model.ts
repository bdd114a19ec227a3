/**
 * The facet model shipped with the code (`model/facet-model.bin`), read once per process on
 * first use: the one file read of the facets, at load time, never per page.
 */
import { readFileSync } from "node:fs";
import type { FacetModel } from "./facet-model.ts";
// A file import: the path of the file in the source tree, and in the single executable the file
// embedded in it (a path relative to import.meta.url would point nowhere there).
import modelPath from "./model/facet-model.bin" with { type: "file" };
import { decodeModel } from "./model-file.ts";

export const PACKAGED_MODEL_PATH: string = modelPath;

let cached: FacetModel | undefined;

export function packagedModel(): FacetModel {
  cached ??= decodeModel(new Uint8Array(readFileSync(PACKAGED_MODEL_PATH)));
  return cached;
}
