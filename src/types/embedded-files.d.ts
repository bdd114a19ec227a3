/**
 * Files imported `with { type: "file" }`: Bun gives their path (on disk when run from source,
 * inside the executable after `bun build --compile`), readable with Bun.file and node:fs.
 */
declare module "*.sql" {
  const path: string;
  // biome-ignore lint/style/noDefaultExport: a file import (`with { type: "file" }`) is a default import
  export default path;
}

declare module "swagger-ui-dist/swagger-ui.css" {
  const path: string;
  // biome-ignore lint/style/noDefaultExport: a file import (`with { type: "file" }`) is a default import
  export default path;
}

declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  // biome-ignore lint/style/noDefaultExport: a file import (`with { type: "file" }`) is a default import
  export default path;
}
