/**
 * Multinomial logistic regression with an L2 penalty, fitted by L-BFGS: the model
 * scikit-learn's `LogisticRegression(C, solver="lbfgs")` fits (minimise
 * Σ wᵢ·cross-entropyᵢ + ‖W‖²/(2C), intercepts not penalised), over sparse rows. Deterministic:
 * starts from zero, no randomness.
 */

/** Sparse rows (CSR). */
export interface SparseRows {
  readonly rows: number;
  readonly cols: number;
  readonly indptr: Int32Array;
  readonly indices: Int32Array;
  readonly values: Float32Array;
}

export interface FitOptions {
  readonly c: number;
  readonly maxIter?: number;
  /** Stop when the largest gradient entry, divided by the total sample weight, is below. */
  readonly tol?: number;
  readonly history?: number;
}

export interface Fitted {
  /** `cols x classes`, row-major. */
  readonly weights: Float32Array;
  readonly bias: Float64Array;
  readonly iterations: number;
}

/** Loss and gradient at `theta` = [W (cols x k) | b (k)]. */
function lossAndGradient(
  x: SparseRows,
  y: Int32Array,
  w: Float64Array,
  k: number,
  c: number,
  theta: Float64Array,
  grad: Float64Array,
): number {
  const nw = x.cols * k;
  grad.fill(0);
  let loss = 0;
  const z = new Float64Array(k);
  for (let i = 0; i < x.rows; i++) {
    const start = x.indptr[i] as number;
    const end = x.indptr[i + 1] as number;
    for (let j = 0; j < k; j++) z[j] = theta[nw + j] as number;
    for (let p = start; p < end; p++) {
      const base = (x.indices[p] as number) * k;
      const v = x.values[p] as number;
      for (let j = 0; j < k; j++) z[j] = (z[j] as number) + v * (theta[base + j] as number);
    }
    let max = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < k; j++) max = Math.max(max, z[j] as number);
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const e = Math.exp((z[j] as number) - max);
      z[j] = e;
      sum += e;
    }
    const yi = y[i] as number;
    const wi = w[i] as number;
    loss -= wi * (Math.log((z[yi] as number) / sum) || -745);
    for (let j = 0; j < k; j++) z[j] = (wi * (z[j] as number)) / sum - (j === yi ? wi : 0);
    for (let j = 0; j < k; j++) grad[nw + j] = (grad[nw + j] as number) + (z[j] as number);
    for (let p = start; p < end; p++) {
      const base = (x.indices[p] as number) * k;
      const v = x.values[p] as number;
      for (let j = 0; j < k; j++)
        grad[base + j] = (grad[base + j] as number) + v * (z[j] as number);
    }
  }
  const lambda = 1 / c;
  for (let q = 0; q < nw; q++) {
    const t = theta[q] as number;
    loss += 0.5 * lambda * t * t;
    grad[q] = (grad[q] as number) + lambda * t;
  }
  return loss;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

export function fitLogistic(
  x: SparseRows,
  y: Int32Array,
  sampleWeight: Float64Array,
  classes: number,
  opts: FitOptions,
): Fitted {
  const k = classes;
  const n = x.cols * k + k;
  const maxIter = opts.maxIter ?? 1000;
  const tol = opts.tol ?? 1e-4;
  const m = opts.history ?? 10;
  const swSum = sampleWeight.reduce((a, b) => a + b, 0);
  const f = (t: Float64Array, g: Float64Array) =>
    lossAndGradient(x, y, sampleWeight, k, opts.c, t, g);
  let theta = new Float64Array(n);
  let grad = new Float64Array(n);
  let loss = f(theta, grad);
  const s: Float64Array[] = [];
  const yk: Float64Array[] = [];
  const rho: number[] = [];
  let iter = 0;
  for (; iter < maxIter; iter++) {
    let gmax = 0;
    for (let i = 0; i < n; i++) gmax = Math.max(gmax, Math.abs(grad[i] as number));
    if (gmax / swSum < tol) break;
    // Two-loop recursion: direction = -H·grad.
    const q = Float64Array.from(grad);
    const alpha: number[] = [];
    for (let i = s.length - 1; i >= 0; i--) {
      const a = (rho[i] as number) * dot(s[i] as Float64Array, q);
      alpha[i] = a;
      const yi = yk[i] as Float64Array;
      for (let j = 0; j < n; j++) q[j] = (q[j] as number) - a * (yi[j] as number);
    }
    const last = s.length - 1;
    const gamma =
      last >= 0
        ? dot(s[last] as Float64Array, yk[last] as Float64Array) /
          dot(yk[last] as Float64Array, yk[last] as Float64Array)
        : 1 / Math.max(Math.sqrt(dot(grad, grad)), 1e-12);
    for (let j = 0; j < n; j++) q[j] = (q[j] as number) * gamma;
    for (let i = 0; i < s.length; i++) {
      const b = (rho[i] as number) * dot(yk[i] as Float64Array, q);
      const si = s[i] as Float64Array;
      for (let j = 0; j < n; j++)
        q[j] = (q[j] as number) + (si[j] as number) * ((alpha[i] as number) - b);
    }
    for (let j = 0; j < n; j++) q[j] = -(q[j] as number);
    let slope = dot(grad, q);
    if (slope >= 0) {
      // Not a descent direction: restart from steepest descent.
      s.length = 0;
      yk.length = 0;
      rho.length = 0;
      for (let j = 0; j < n; j++) q[j] = -(grad[j] as number);
      slope = dot(grad, q);
    }
    // Backtracking line search (Armijo).
    let step = 1;
    const next = new Float64Array(n);
    const nextGrad = new Float64Array(n);
    let nextLoss = 0;
    for (let tries = 0; ; tries++) {
      for (let j = 0; j < n; j++) next[j] = (theta[j] as number) + step * (q[j] as number);
      nextLoss = f(next, nextGrad);
      if (nextLoss <= loss + 1e-4 * step * slope || tries >= 30) break;
      step *= 0.5;
    }
    const sNew = new Float64Array(n);
    const yNew = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      sNew[j] = (next[j] as number) - (theta[j] as number);
      yNew[j] = (nextGrad[j] as number) - (grad[j] as number);
    }
    const sy = dot(sNew, yNew);
    if (sy > 1e-10) {
      s.push(sNew);
      yk.push(yNew);
      rho.push(1 / sy);
      if (s.length > m) {
        s.shift();
        yk.shift();
        rho.shift();
      }
    }
    const improvement = loss - nextLoss;
    theta = next;
    grad = nextGrad;
    loss = nextLoss;
    if (improvement >= 0 && improvement <= 1e-12 * Math.max(1, Math.abs(loss))) break;
  }
  const weights = new Float32Array(x.cols * k);
  for (let i = 0; i < weights.length; i++) weights[i] = theta[i] as number;
  return { weights, bias: theta.slice(x.cols * k), iterations: iter };
}
