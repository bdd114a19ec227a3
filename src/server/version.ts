import { Elysia } from "elysia";
import { VERSION } from "../version.ts";

/** `X-Webcorpus-Version` on every response, errors included (onRequest hooks are global). */
export const versionHeader = new Elysia({ name: "version-header" }).onRequest(({ set }) => {
  set.headers["x-webcorpus-version"] = VERSION;
});
