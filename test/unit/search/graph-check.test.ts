import { afterEach, describe, expect, setDefaultTimeout, spyOn, test } from "bun:test";
import {
  loadEmbedder,
  loadQueryEmbedder,
  PRECISE_BELOW_TOKENS,
} from "../../../src/search/embedder.ts";
import { CHECK_TEXT, describeChecks, MIN_CHECK_COSINE } from "../../../src/search/graph-check.ts";
import { loadTokenCounter, MODEL_MAX_TOKENS } from "../../../src/search/model-files.ts";

const FIXTURES = new URL("../../fixtures/embedding/", import.meta.url).pathname;

// Loading the model twice and 40 texts on the precise graph: seconds on a busy 2-core machine.
setDefaultTimeout(60_000);

const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});

describe("load-time self-check of the int8 graph", () => {
  test("the check passage fills several 32-row blocks and is read whole", () => {
    const pieces = loadTokenCounter().count(CHECK_TEXT) + 2;
    expect(pieces).toBe(202);
    expect(pieces).toBeLessThanOrEqual(MODEL_MAX_TOKENS);
  });

  test("the shipped graphs pass it with a margin, and passages stay on int8", async () => {
    const embedder = await loadEmbedder();
    const check = embedder.check;
    if (check === null) throw new Error("no self-check on the int8 variant");
    // Measured 0.9981 (onnxruntime-node 1.30.0; 0.9982 on 1.24.3-1.29.0) on an AVX-512 VNNI
    // machine, the only CPU measured. The int8 products are exact integer work on every x86
    // kernel once right (7-bit weights: no int16 saturation on AVX2 either), so other CPUs should
    // differ by fp32 rounding only: 0.996 leaves them 0.002 and stays 0.006 above the 0.99 at
    // which the embedder gives up on int8.
    expect(check.cosine).toBeGreaterThanOrEqual(0.996);
    // Below 1: the two graphs really differ (the check did not run one graph twice).
    expect(check.cosine).toBeLessThan(0.9999);
    expect(check.passagesOn).toBe("int8");
    expect(MIN_CHECK_COSINE).toBe(0.99);
  });

  test("a failed check (threshold above 1) sends every passage to the precise graph, loudly", async () => {
    const errors: string[] = [];
    const spy = spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      errors.push(args.map(String).join(" "));
    });
    restore.push(() => spy.mockRestore());
    const fallback = await loadEmbedder({ minCheckCosine: 1.01 });
    spy.mockRestore();
    expect(fallback.check?.passagesOn).toBe("precise");
    expect(fallback.check?.cosine).toBeGreaterThanOrEqual(0.996);
    expect(errors.length).toBe(1);
    expect(errors[0]).toContain("self-check FAILED");
    expect(errors[0]).toContain(fallback.check?.cosine.toFixed(4) ?? "?");

    const texts: string[] = (await Bun.file(`${FIXTURES}texts.json`).json()).slice(0, 12);
    const counter = loadTokenCounter();
    const long = texts.flatMap((t, i) => (counter.count(t) + 2 >= PRECISE_BELOW_TOKENS ? [i] : []));
    expect(long.length).toBeGreaterThanOrEqual(6);
    // The precise graph alone (the query embedder: same file, same session options).
    const precise = await loadQueryEmbedder();
    const vectors = await fallback.embedPassages(texts);
    for (const [i, text] of texts.entries()) {
      expect(vectors[i]).toEqual(await precise.embedQuery(text));
    }
    // Whereas with the check passed, long passages run on the int8 graph: other vectors.
    const int8 = await (await loadEmbedder()).embedPassages(long.map((i) => texts[i] ?? ""));
    for (const [k, i] of long.entries()) expect(int8[k]).not.toEqual(vectors[i]);
  });

  test("describeChecks: one line for the service log", () => {
    expect(describeChecks([null])).toBe("no self-check (one graph)");
    expect(
      describeChecks([
        { cosine: 0.99816, passagesOn: "int8" },
        { cosine: 0.9982, passagesOn: "int8" },
      ]),
    ).toBe("self-check of the int8 graph: cosine 0.9982, 0.9982; passages on int8");
    expect(
      describeChecks([
        { cosine: 0.83, passagesOn: "precise" },
        { cosine: 0.9982, passagesOn: "int8" },
      ]),
    ).toBe(
      "self-check of the int8 graph: cosine 0.8300, 0.9982; FAILED on 1 of 2 lanes: their passages on the precise graph",
    );
  });
});
