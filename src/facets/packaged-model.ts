/**
 * The facet model shipped with the code (`model/facet-model.bin`), read once per process on
 * first use: the one file read of the facets, at load time, never per page.
 */
import { readFileSync } from "node:fs";
import type { FacetModel } from "./facet-model.ts";
import { decodeKindModel } from "./kind-model-file.ts";
// A file import: the path of the file in the source tree, and in the single executable the file
// embedded in it (a path relative to import.meta.url would point nowhere there).
import modelPath from "./model/facet-model.bin" with { type: "file" };
import kindModelPath from "./model/page-kind.bin" with { type: "file" };
import { decodeModel } from "./model-file.ts";
import type { PageKindModel } from "./page-kind-model.ts";

export const PACKAGED_MODEL_PATH: string = modelPath;

let cached: FacetModel | undefined;

export function packagedModel(): FacetModel {
  cached ??= decodeModel(new Uint8Array(readFileSync(PACKAGED_MODEL_PATH)));
  return cached;
}

export const PACKAGED_KIND_MODEL_PATH: string = kindModelPath;

let cachedKind: PageKindModel | undefined;

/** The page-kind model shipped with the code (`model/page-kind.bin`), read once per process. */
export function packagedKindModel(): PageKindModel {
  cachedKind ??= decodeKindModel(new Uint8Array(readFileSync(PACKAGED_KIND_MODEL_PATH)));
  return cachedKind;
}
