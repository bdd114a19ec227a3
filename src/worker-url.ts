/**
 * The URL of a worker entry point, given its path under src/. Resolved from this module, which
 * sits at src/: from the source tree that is src/<path>, and in the single executable (where
 * every module is bundled into one file at the root of Bun's embedded file system, and the
 * workers are entry points of their own under the same root) it is <root>/<path> as well.
 */
export function workerUrl(pathUnderSrc: string): string {
  return new URL(`./${pathUnderSrc}`, import.meta.url).href;
}
