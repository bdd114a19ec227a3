/** pdf.js's worker half, imported into the thread that parses (pdf-reader.ts); it ships no types. */
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}
