/**
 * The statistics of the page-count estimate (services/estimate.ts): a proportion's Wilson
 * interval, two-capture population estimates (Chapman; Chao2 from incidences) and a Poisson rate
 * bound. Pure functions of counts.
 */

/** Two-sided 95 %. */
export const Z = 1.96;
export type Interval = [low: number, high: number];
export type Population = [estimate: number, low: number, high: number];

/** Wilson score interval of a proportion; [0, 1] when there are no trials. */
export function wilson(successes: number, trials: number, z = Z): Interval {
  if (trials <= 0) return [0, 1];
  const p = successes / trials;
  const denom = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Chapman's estimate of a population from two captures, with a normal interval. */
export function chapman(n1: number, n2: number, m: number, z = Z): Population {
  const nHat = ((n1 + 1) * (n2 + 1)) / (m + 1) - 1;
  const variance = ((n1 + 1) * (n2 + 1) * (n1 - m) * (n2 - m)) / ((m + 1) ** 2 * (m + 2));
  const sd = Math.sqrt(Math.max(0, variance));
  const low = Math.max(n1 + n2 - m, nHat - z * sd);
  return [nHat, low, nHat + z * sd];
}

/** Chao2 incidence estimate of species richness (here: URLs), with a log-normal interval. */
export function chao2(observed: number, q1: number, q2: number, units: number, z = Z): Population {
  const none: Population = [observed, observed, observed];
  if (units <= 0 || q1 === 0) return none;
  const a = (units - 1) / units;
  let f0: number;
  let variance: number;
  if (q2 > 0) {
    f0 = (a * q1 * q1) / (2 * q2);
    const r = q1 / q2;
    variance = q2 * ((a / 2) * r ** 2 + a * a * r ** 3 + ((a * a) / 4) * r ** 4);
  } else {
    f0 = (a * q1 * (q1 - 1)) / 2;
    variance =
      (a * q1 * (q1 - 1)) / 2 +
      (a * a * q1 * (2 * q1 - 1) ** 2) / 4 -
      (a ** 2 * q1 ** 4) / (4 * f0);
    variance = f0 > 0 ? Math.max(variance, 0) : 0;
  }
  if (f0 <= 0) return none;
  const c = Math.exp(z * Math.sqrt(Math.log(1 + Math.max(variance, 0) / (f0 * f0))));
  return [observed + f0, observed + f0 / c, observed + f0 * c];
}

/**
 * Upper bound of a rate observed as `count` events over `exposure` units (Poisson, square-root
 * approximation: (√(count + 1) + z/2)² events). A rate seen on the dozen pages of a small
 * crawl's last quarter is noisy; the bound shrinks as they grow.
 */
export function poissonRateHigh(count: number, exposure: number, z = Z): number {
  return (Math.sqrt(count + 1) + z / 2) ** 2 / Math.max(1, exposure);
}
