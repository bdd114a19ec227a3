/**
 * The facet model shipped with the code (`model/facet-model.bin`), read once per process on
 * first use: the one file read of the facets, at load time, never per page.
 */
import { readFileSync } from "node:fs";
import type { FacetModel } from "./facet-model.ts";
import { decodeModel } from "./model-file.ts";

export const PACKAGED_MODEL_URL = new URL("./model/facet-model.bin", import.meta.url);

let cached: FacetModel | undefined;

export function packagedModel(): FacetModel {
  cached ??= decodeModel(new Uint8Array(readFileSync(PACKAGED_MODEL_URL)));
  return cached;
}
