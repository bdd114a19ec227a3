/**
 * Fit the page-kind classifier (src/facets/page-kind-model.ts) on labeled pages: vocabulary of
 * tokens seen on at least `minSites` sites, each group L2-normalised, multinomial logistic
 * regression by L-BFGS from zero (deterministic).
 */
import {
  KIND_GROUPS,
  type KindFeatures,
  type KindGroup,
  PAGE_KINDS,
  type PageKind,
  PageKindModel,
} from "../../../../src/facets/page-kind-model.ts";
import { fitLogistic } from "./logistic.ts";

export interface KindRow {
  readonly feats: KindFeatures;
  readonly kind: PageKind;
  readonly site: string;
}

export const KIND_PARAMS = {
  c: 4,
  minSites: 3,
  maxFeatures: { u: 1500, t: 2000, h: 2000, b: 4000, f: 400 } as Record<KindGroup, number>,
  /** Each kind's rows weigh as if the kinds were equally frequent (macro agreement is the aim). */
  balanced: 1,
};

export function fitKind(rows: readonly KindRow[]): PageKindModel {
  const sites = new Map<KindGroup, Map<string, Set<string>>>();
  for (const g of KIND_GROUPS) sites.set(g, new Map());
  for (const r of rows) {
    for (const g of KIND_GROUPS) {
      const sg = sites.get(g) as Map<string, Set<string>>;
      for (const t of new Set(r.feats[g])) {
        const s = sg.get(t) ?? new Set<string>();
        sg.set(t, s);
        if (s.size < 50) s.add(r.site);
      }
    }
  }
  const vocab = new Map<KindGroup, Map<string, number>>();
  let n = 0;
  for (const g of KIND_GROUPS) {
    const ok = [...(sites.get(g) as Map<string, Set<string>>)]
      .filter(([, s]) => s.size >= KIND_PARAMS.minSites)
      .sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, KIND_PARAMS.maxFeatures[g])
      .map(([t]) => t)
      .sort();
    const m = new Map<string, number>();
    for (const t of ok) m.set(t, n++);
    vocab.set(g, m);
  }
  const indptr = new Int32Array(rows.length + 1);
  const indices: number[] = [];
  const values: number[] = [];
  rows.forEach((r, i) => {
    for (const g of KIND_GROUPS) {
      const vg = vocab.get(g) as Map<string, number>;
      const cols = new Set<number>();
      for (const t of r.feats[g]) {
        const c = vg.get(t);
        if (c !== undefined) cols.add(c);
      }
      for (const c of cols) {
        indices.push(c);
        values.push(1 / Math.sqrt(cols.size));
      }
    }
    indptr[i + 1] = indices.length;
  });
  const classes = [...PAGE_KINDS];
  const index = new Map<string, number>(classes.map((c, i) => [c, i]));
  const freq = new Map<string, number>();
  for (const r of rows) freq.set(r.kind, (freq.get(r.kind) ?? 0) + 1);
  const weights = rows.map((r) =>
    KIND_PARAMS.balanced ? rows.length / classes.length / (freq.get(r.kind) ?? 1) : 1,
  );
  const fitted = fitLogistic(
    {
      rows: rows.length,
      cols: n,
      indptr,
      indices: Int32Array.from(indices),
      values: Float32Array.from(values),
    },
    Int32Array.from(rows.map((r) => index.get(r.kind) ?? 0)),
    Float64Array.from(weights),
    classes.length,
    { c: KIND_PARAMS.c },
  );
  return new PageKindModel(vocab, classes, Float32Array.from(fitted.bias), fitted.weights);
}
