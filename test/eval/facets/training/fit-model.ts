/**
 * Fit the facet model on a training pool: weak labels (the rules' confident decisions) on every
 * page plus hand labels on the `tune` pages, as the reference's eval/facets/train.py does.
 */
import { HEADS, type Head } from "../../../../src/facets/facet-model.ts";
import {
  FEATURE_GROUPS,
  type FeatureGroup,
  type PageFeatures,
} from "../../../../src/facets/model-features.ts";
import type { ModelParts } from "../../../../src/facets/model-file.ts";
import { TYPE_VALUES } from "../../../../src/facets/vocabulary.ts";
import { fitLogistic, type SparseRows } from "./logistic.ts";
import type { PoolPage } from "./pool.ts";

/** Hyper-parameters (the reference's, picked by its --cv on the tune split). */
export const PARAMS = {
  c: 1.0,
  handWeight: 4.0,
  /** Each source's weak rows weigh at most this much in total. */
  weakBudget: 300.0,
  minDf: 3,
  minSites: 2,
  maxFeatures: { b: 6000, h: 2500, t: 2000, d: 1500 } as Partial<Record<FeatureGroup, number>>,
  weakTypeMin: 2.5,
  weakTypeMargin: 1.0,
};

/** The rules' confident decisions: a clear type winner, a specific format or audience signal,
 * and a few high-precision vocabulary-rate cases. */
export function weakLabels(p: PoolPage): Partial<Record<Head, string>> {
  const r = p.rule;
  const out: Partial<Record<Head, string>> = {};
  const entries = Object.entries(r.scores).sort((a, b) => b[1] - a[1]);
  const [first = 0, second = 0] = entries.map(([, v]) => v);
  const top2 = new Set(entries.slice(0, 2).map(([k]) => k));
  const clear =
    first - second >= PARAMS.weakTypeMargin ||
    [...top2].every((k) => k === "docs" || k === "api_reference");
  if (r.type !== "other" && first >= PARAMS.weakTypeMin && clear) out.type = r.type;
  const [fmt, fmtStrong] = r.format;
  if (fmtStrong) out.format = fmt;
  else if (
    fmt === "article" &&
    ["news", "blog", "legal", "about", "case_study"].includes(out.type ?? "")
  ) {
    out.format = "article";
  }
  const [aud, audStrong] = r.audience;
  if (audStrong) out.audience = aud;
  else if (r.words >= 150 && ["docs", "api_reference", "changelog"].includes(out.type ?? "")) {
    if (r.devRate >= 0.05) out.audience = "developers";
    else if (r.techRate >= 0.03 && r.devRate < 0.02) out.audience = "technical";
  }
  return out;
}

type Vocab = Map<FeatureGroup, Map<string, number>>;

export function buildVocab(pages: readonly PoolPage[]): {
  vocab: Vocab;
  rows: [FeatureGroup, string][];
} {
  const df = new Map<FeatureGroup, Map<string, number>>();
  const sites = new Map<FeatureGroup, Map<string, Set<string>>>();
  for (const g of FEATURE_GROUPS) {
    df.set(g, new Map());
    sites.set(g, new Map());
  }
  for (const p of pages) {
    for (const [g, toks] of Object.entries(p.feats) as [FeatureGroup, string[]][]) {
      const dg = df.get(g) as Map<string, number>;
      const sg = sites.get(g) as Map<string, Set<string>>;
      for (const t of new Set(toks)) {
        dg.set(t, (dg.get(t) ?? 0) + 1);
        const s = sg.get(t) ?? new Set<string>();
        sg.set(t, s);
        if (s.size < PARAMS.minSites) s.add(p.site);
      }
    }
  }
  const vocab: Vocab = new Map();
  const rows: [FeatureGroup, string][] = [];
  for (const g of FEATURE_GROUPS) {
    let keep: string[];
    if (g === "y") keep = [...TYPE_VALUES].sort();
    else {
      const dg = df.get(g) as Map<string, number>;
      const sg = sites.get(g) as Map<string, Set<string>>;
      const minDf = g === "f" ? 1 : PARAMS.minDf;
      const ok = [...dg].filter(
        ([t, n]) => n >= minDf && (sg.get(t)?.size ?? 0) >= PARAMS.minSites,
      );
      ok.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      keep = ok
        .slice(0, PARAMS.maxFeatures[g] ?? ok.length)
        .map(([t]) => t)
        .sort();
    }
    const m = new Map<string, number>();
    for (const t of keep) {
      m.set(t, rows.length);
      rows.push([g, t]);
    }
    vocab.set(g, m);
  }
  return { vocab, rows };
}

function encode(vocab: Vocab, feats: readonly PageFeatures[], cols: number): SparseRows {
  const indptr = new Int32Array(feats.length + 1);
  const indices: number[] = [];
  const values: number[] = [];
  feats.forEach((f, i) => {
    for (const [g, toks] of Object.entries(f) as [FeatureGroup, string[]][]) {
      const vg = vocab.get(g);
      if (!vg) continue;
      const colsOf = new Set<number>();
      for (const t of toks) {
        const c = vg.get(t);
        if (c !== undefined) colsOf.add(c);
      }
      const v = colsOf.size ? 1 / Math.sqrt(colsOf.size) : 0;
      for (const c of colsOf) {
        indices.push(c);
        values.push(v);
      }
    }
    indptr[i + 1] = indices.length;
  });
  return {
    rows: feats.length,
    cols,
    indptr,
    indices: Int32Array.from(indices),
    values: Float32Array.from(values),
  };
}

/** Train on the weak labels of every page plus the hand labels of pages not in `exclude`. */
export function fit(
  pages: readonly PoolPage[],
  exclude: ReadonlySet<string> = new Set(),
  log = false,
): ModelParts {
  const { vocab, rows } = buildVocab(pages);
  const perSource = new Map<string, number>();
  for (const p of pages) perSource.set(p.source, (perSource.get(p.source) ?? 0) + 1);
  const weakWeight = (s: string) => Math.min(1, PARAMS.weakBudget / (perSource.get(s) ?? 1));
  const heads = {} as Record<Head, { classes: string[]; bias: number[] }>;
  const parts: Float32Array[] = [];
  for (const head of HEADS) {
    const feats: PageFeatures[] = [];
    const ys: string[] = [];
    const ws: number[] = [];
    for (const p of pages) {
      const base: PageFeatures = head === "type" ? p.feats : { ...p.feats, y: [p.rule.type] };
      const weak = weakLabels(p)[head];
      if (p.hand && !exclude.has(p.id)) {
        feats.push(base);
        ys.push(p.hand[head]);
        ws.push(PARAMS.handWeight);
      } else if (weak !== undefined) {
        feats.push(base);
        ys.push(weak);
        ws.push(weakWeight(p.source));
      }
    }
    const classes = [...new Set(ys)].sort();
    const index = new Map(classes.map((c, i) => [c, i]));
    const x = encode(vocab, feats, rows.length);
    const fitted = fitLogistic(
      x,
      Int32Array.from(ys.map((y) => index.get(y) ?? 0)),
      Float64Array.from(ws),
      classes.length,
      {
        c: PARAMS.c,
      },
    );
    if (log)
      console.error(
        `${head}: ${ys.length} rows, ${classes.length} classes, ${fitted.iterations} iterations`,
      );
    heads[head] = { classes, bias: Array.from(fitted.bias) };
    parts.push(fitted.weights);
  }
  const width = HEADS.reduce((s, h) => s + heads[h].classes.length, 0);
  const weights = new Float32Array(rows.length * width);
  let offset = 0;
  HEADS.forEach((h, hi) => {
    const k = heads[h].classes.length;
    const w = parts[hi] as Float32Array;
    for (let r = 0; r < rows.length; r++) {
      for (let j = 0; j < k; j++) weights[r * width + offset + j] = w[r * k + j] as number;
    }
    offset += k;
  });
  return { rows, heads, weights };
}
