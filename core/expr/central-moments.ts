/**
 * The second central moment of a group's values, as Spark's CentralMomentAgg keeps it: the count,
 * the mean and M2 (the sum of squared differences from the mean). A row updates it by Welford's
 * step and two partial moments merge by Chan's formula, so a session window or a restored state
 * continues exactly where it stopped. variance and stddev are read from it at output.
 */

/** `[n, mean, m2]`: a plain array, so the state store can keep and encode it. */
export type CentralMoments = [n: number, mean: number, m2: number];

/** Which statistic a variance-family aggregate reads from the moments. */
export type MomentStatistic = 'var_samp' | 'var_pop' | 'stddev_samp' | 'stddev_pop';

/** The moments of no rows. */
export function emptyMoments(): CentralMoments {
  return [0, 0, 0];
}

/** Folds one value in (Welford's update, written as Spark's merge with a count of one). */
export function addMoment(m: CentralMoments, x: number): CentralMoments {
  const n = m[0] + 1;
  const delta = x - m[1];
  const deltaN = delta / n;
  m[0] = n;
  m[1] += deltaN;
  m[2] += delta * (delta - deltaN);
  return m;
}

/** Merges the moments of disjoint rows into `a` (Chan et al.'s parallel formula). */
export function mergeMoments(a: CentralMoments, b: CentralMoments): CentralMoments {
  if (b[0] === 0) return a;
  if (a[0] === 0) {
    a[0] = b[0];
    a[1] = b[1];
    a[2] = b[2];
    return a;
  }
  const n = a[0] + b[0];
  const delta = b[1] - a[1];
  const deltaN = delta / n;
  a[2] += b[2] + delta * deltaN * a[0] * b[0];
  a[1] += deltaN * b[0];
  a[0] = n;
  return a;
}

/**
 * The statistic, with Spark 4's nulls (`spark.sql.legacy.statisticalAggregate` is false by
 * default): null for no rows, and null rather than NaN for a sample statistic of one row.
 */
export function momentStatistic(m: CentralMoments, statistic: MomentStatistic): number | null {
  const [n, , m2] = m;
  if (n === 0) return null;
  const sample = statistic === 'var_samp' || statistic === 'stddev_samp';
  if (sample && n === 1) return null;
  const variance = m2 / (sample ? n - 1 : n);
  return statistic === 'var_samp' || statistic === 'var_pop' ? variance : Math.sqrt(variance);
}
