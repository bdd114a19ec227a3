/**
 * Load-time self-check of the int8 graph: one fixed passage embedded on the int8-compute graph and
 * on the precise graph (fp32 compute on the same weights) must agree. A CPU whose int8 kernels are
 * wrong (onnxruntime <= 1.24.4 on AMX Xeons miscomputed some output widths: data/models/README.md)
 * would otherwise index bad vectors without a sign; here it is caught at each lane's start and its
 * passages go to the precise graph instead (2-3x the CPU per text, but right).
 */
import { counted } from "../plural.ts";

/** A neutral English passage of 202 word pieces ([CLS] and [SEP] included): long enough to fill
 * several 32-row blocks of the int8 GEMMs, short enough to cost one run per graph. */
export const CHECK_TEXT =
  "The town library opens at nine in the morning and closes at six in the evening, except on " +
  "Sundays, when it stays shut. Its reading room faces a small garden with two old oak trees and " +
  "a bench that gets the sun in the afternoon. Books are arranged by subject on the ground floor, " +
  "with history and geography near the entrance and science toward the back, while the upper " +
  "floor holds newspapers, maps and a quiet corner for children. Visitors may borrow up to six " +
  "books at a time for three weeks, and a renewal can be asked for at the desk or by telephone. " +
  "Every autumn the staff sort through donated volumes, keep the ones in good condition and sell " +
  "the rest at a fair in the square, where the money raised pays for new shelves, lamps and the " +
  "repair of worn covers. On winter evenings a volunteer reads stories aloud by the fireplace, " +
  "and older readers meet once a month to talk about a novel they have all finished. Many " +
  "residents say the building is the calmest place in town.";

/** Below this cosine between the two graphs' vectors of `CHECK_TEXT`, passages go to the precise
 * graph. The shipped graphs agree at 0.9981 on AVX-512 VNNI (test/unit/search/graph-check.test.ts);
 * the AMX fault this guards against gave cosines down to 0.83. */
export const MIN_CHECK_COSINE = 0.99;

export type PassageGraph = "int8" | "precise";

export interface GraphCheck {
  /** Cosine between the int8 graph's and the precise graph's unit vectors of `CHECK_TEXT`. */
  readonly cosine: number;
  /** The graph passages run on after the check (short passages use the precise one anyway). */
  readonly passagesOn: PassageGraph;
}

type EmbedOne = (text: string) => Promise<Float32Array>;

/** One log line for a pool's lanes, e.g. "self-check of the int8 graph: cosine 0.9981, 0.9981;
 * passages on int8". */
export function describeChecks(checks: readonly (GraphCheck | null)[]): string {
  const done = checks.filter((c): c is GraphCheck => c !== null);
  if (done.length === 0) return "no self-check (one graph)";
  const cosines = done.map((c) => c.cosine.toFixed(4)).join(", ");
  const fallback = done.filter((c) => c.passagesOn === "precise").length;
  const routing =
    fallback === 0
      ? "passages on int8"
      : `FAILED on ${fallback} of ${counted(done.length, "lane")}: their passages on the precise graph`;
  return `self-check of the int8 graph: cosine ${cosines}; ${routing}`;
}

/** Embeds `CHECK_TEXT` on both graphs; logs loudly and answers "precise" when they disagree. */
export async function checkGraphs(
  int8: EmbedOne,
  precise: EmbedOne,
  minCosine: number = MIN_CHECK_COSINE,
): Promise<GraphCheck> {
  const a = await int8(CHECK_TEXT);
  const b = await precise(CHECK_TEXT);
  let cosine = 0;
  for (let i = 0; i < a.length; i++) cosine += (a[i] ?? 0) * (b[i] ?? 0);
  // A NaN (broken kernel) fails the check too.
  if (cosine >= minCosine) return { cosine, passagesOn: "int8" };
  console.error(
    `embedder self-check FAILED: the int8 graph's vector of a fixed passage is at cosine ` +
      `${cosine.toFixed(4)} to the precise graph's (minimum ${minCosine}); this CPU's int8 ` +
      "kernels are not to be trusted, so every passage is embedded on the precise graph " +
      "(correct vectors, 2-3x the CPU per passage)",
  );
  return { cosine, passagesOn: "precise" };
}
