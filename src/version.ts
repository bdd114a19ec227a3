import pkg from "../package.json" with { type: "json" };

/** The service version, sent as `X-Webcorpus-Version` and in the OpenAPI document. */
export const VERSION: string = pkg.version;
