/**
 * The learned classifier of type, format and audience: a multinomial logistic regression per
 * head over one shared vocabulary of sparse binary features (model-features.ts), each group
 * L2-normalised on its own so that a long body does not drown the title. Format and audience
 * also see the decided type (group `y`). Prediction is a few map look-ups and one small
 * weighted sum of weight rows for the three heads at once.
 *
 * The weights come from the data file `model/facet-model.bin` (see model-file.ts, and
 * src/facets/README.md for how it is trained or exported).
 */
import type { FeatureGroup, PageFeatures } from "./model-features.ts";

export type Head = "type" | "format" | "audience";
export const HEADS: readonly Head[] = ["type", "format", "audience"];

export interface HeadWeights {
  readonly classes: readonly string[];
  readonly bias: Float32Array;
}

export interface Prediction {
  readonly label: string;
  readonly prob: number;
}

export function describePrediction(p: Prediction): string {
  return `model: ${p.label} p=${p.prob.toFixed(2)}`;
}

export class FacetModel {
  /** Group → token → row of the weight matrix. */
  readonly vocab: ReadonlyMap<FeatureGroup, ReadonlyMap<string, number>>;
  readonly heads: Readonly<Record<Head, HeadWeights>>;
  /** Rows of every head's weights side by side: `rows x width`, row-major. */
  readonly #weights: Float32Array;
  readonly #width: number;
  readonly #offset: Readonly<Record<Head, number>>;

  constructor(
    vocab: ReadonlyMap<FeatureGroup, ReadonlyMap<string, number>>,
    heads: Readonly<Record<Head, HeadWeights>>,
    weights: Float32Array,
  ) {
    this.vocab = vocab;
    this.heads = heads;
    this.#width =
      heads.type.classes.length + heads.format.classes.length + heads.audience.classes.length;
    this.#offset = {
      type: 0,
      format: heads.type.classes.length,
      audience: heads.type.classes.length + heads.format.classes.length,
    };
    let rows = 0;
    for (const g of vocab.values()) for (const r of g.values()) rows = Math.max(rows, r + 1);
    if (weights.length !== rows * this.#width) {
      throw new Error(`facet model: ${weights.length} weights for ${rows} rows x ${this.#width}`);
    }
    this.#weights = weights;
  }

  get features(): number {
    let n = 0;
    for (const g of this.vocab.values()) n += g.size;
    return n;
  }

  /** The weight of `row` for class `index` of `head`. */
  weight(head: Head, row: number, index: number): number {
    return this.#weights[row * this.#width + this.#offset[head] + index] ?? 0;
  }

  /** Raw scores of every class of every head, from every group but `y`. */
  logits(feats: PageFeatures): Float64Array {
    const z = new Float64Array(this.#width);
    for (const [group, tokens] of Object.entries(feats) as [FeatureGroup, readonly string[]][]) {
      if (group === "y") continue;
      const vg = this.vocab.get(group);
      if (!vg) continue;
      const rows = new Set<number>();
      for (const t of tokens) {
        const r = vg.get(t);
        if (r !== undefined) rows.add(r);
      }
      if (rows.size === 0) continue;
      const v = 1 / Math.sqrt(rows.size);
      for (const r of rows) {
        const base = r * this.#width;
        for (let j = 0; j < this.#width; j++)
          z[j] = (z[j] as number) + v * (this.#weights[base + j] as number);
      }
    }
    return z;
  }

  /** The head's most probable label and its probability; `type` feeds format and audience. */
  predict(head: Head, logits: Float64Array, type?: string): Prediction {
    const { classes, bias } = this.heads[head];
    const off = this.#offset[head];
    const typeRow =
      type !== undefined && head !== "type" ? this.vocab.get("y")?.get(type) : undefined;
    const z = classes.map((_, i) => {
      let v = (logits[off + i] as number) + (bias[i] as number);
      if (typeRow !== undefined) v += this.#weights[typeRow * this.#width + off + i] as number;
      return v;
    });
    const max = Math.max(...z);
    const exp = z.map((v) => Math.exp(v - max));
    const sum = exp.reduce((a, b) => a + b, 0);
    let best = 0;
    for (let i = 1; i < exp.length; i++) if ((exp[i] as number) > (exp[best] as number)) best = i;
    return { label: classes[best] as string, prob: (exp[best] as number) / sum };
  }
}
