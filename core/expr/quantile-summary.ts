/**
 * The Greenwald-Khanna quantile summary behind `percentile_approx`, following Spark's
 * QuantileSummaries: sampled values with `g` (the rank gap to the previous sample) and `delta`
 * (the rank uncertainty), so a percentile's answer is a value of the input whose rank is within
 * `relativeError * n` of the exact one. New values wait in a head buffer and are inserted in
 * sorted runs; summaries merge (a session window, or a restored state) by Spark's rule that widens
 * each side's uncertainty by the other side's error.
 *
 * The summary is a plain array, so the state store can keep and encode it between micro-batches.
 * Values are numbers (numeric, date and timestamp columns); NaN sorts after every other number.
 */

/** `[n, head, values, g, delta]`: `n` counts the values in `values`, not those still in `head`. */
export type QuantileSummary = [
  n: number,
  head: number[],
  values: number[],
  g: number[],
  delta: number[],
];

/** Values buffered before a sorted insertion (Spark buffers 50000; a smaller head keeps state small). */
const HEAD_SIZE = 1000;
/** Samples kept before a compression (Spark's default). */
const COMPRESS_THRESHOLD = 10000;

/** A summary of no values. */
export function emptySummary(): QuantileSummary {
  return [0, [], [], [], []];
}

/** Adds a value; inserts the head buffer once it is full. */
export function addToSummary(
  s: QuantileSummary,
  x: number,
  relativeError: number,
): QuantileSummary {
  s[1].push(x);
  if (s[1].length >= HEAD_SIZE) {
    insertHead(s, relativeError);
    if (s[2].length >= COMPRESS_THRESHOLD) compress(s, relativeError);
  }
  return s;
}

/** Merges `b` into `a` (both summaries of disjoint values at the same relative error). */
export function mergeSummaries(
  a: QuantileSummary,
  b: QuantileSummary,
  relativeError: number,
): QuantileSummary {
  insertHead(a, relativeError);
  insertHead(b, relativeError);
  if (b[0] === 0) return a;
  if (a[0] === 0) return copyInto(a, b);
  // A sample of one side could sit anywhere among the other side's values up to that side's
  // error, so an inner sample's uncertainty grows by it; the tail of the longer side needs none.
  const extraA = Math.floor(2 * relativeError * b[0]);
  const extraB = Math.floor(2 * relativeError * a[0]);
  const merged: QuantileSummary = [a[0] + b[0], [], [], [], []];
  let i = 0;
  let j = 0;
  while (i < a[2].length && j < b[2].length) {
    if (compareNumbers(a[2][i], b[2][j]) < 0) pushSample(merged, a, i++, extraA);
    else pushSample(merged, b, j++, extraB);
  }
  while (i < a[2].length) pushSample(merged, a, i++, 0);
  while (j < b[2].length) pushSample(merged, b, j++, 0);
  compress(merged, relativeError);
  return copyInto(a, merged);
}

/**
 * The values at `percentages` (each in [0, 1]), as Spark's query answers them; null when the
 * summary holds no value. Leaves `s` unchanged.
 */
export function summaryPercentiles(
  s: QuantileSummary,
  percentages: readonly number[],
  relativeError: number,
): number[] | null {
  const summary = copyInto(emptySummary(), s);
  summary[1] = [...s[1]];
  insertHead(summary, relativeError);
  compress(summary, relativeError);
  const [n, , values, g, delta] = summary;
  if (values.length === 0) return null;
  let widest = 0;
  for (let i = 0; i < values.length; i++) widest = Math.max(widest, g[i] + delta[i]);
  const targetError = Math.floor(widest / 2);
  return percentages.map((p) => {
    if (p <= relativeError) return values[0];
    if (p >= 1 - relativeError) return values[values.length - 1];
    const rank = Math.ceil(p * n);
    let minRank = 0;
    for (let i = 0; i < values.length - 1; i++) {
      minRank += g[i];
      if (minRank + delta[i] - targetError <= rank && rank <= minRank + targetError)
        return values[i];
    }
    return values[values.length - 1];
  });
}

/** Inserts the sorted head buffer among the samples (Spark's withHeadBufferInserted). */
function insertHead(s: QuantileSummary, relativeError: number): void {
  const head = s[1];
  if (head.length === 0) return;
  head.sort(compareNumbers);
  const merged: QuantileSummary = [s[0], [], [], [], []];
  let k = 0;
  for (let h = 0; h < head.length; h++) {
    const x = head[h];
    while (k < s[2].length && compareNumbers(s[2][k], x) <= 0) pushSample(merged, s, k++, 0);
    merged[0]++;
    // The smallest and largest values are known exactly; any other's rank is uncertain by the error.
    const atEnd = merged[2].length === 0 || (k === s[2].length && h === head.length - 1);
    pushValue(merged, x, 1, atEnd ? 0 : Math.floor(2 * relativeError * merged[0]));
  }
  while (k < s[2].length) pushSample(merged, s, k++, 0);
  copyInto(s, merged);
}

/** Merges neighbouring samples whose combined uncertainty stays under the error (Spark's compressImmut). */
function compress(s: QuantileSummary, relativeError: number): void {
  const [n, , values, g, delta] = s;
  if (values.length <= 1) return;
  const threshold = 2 * relativeError * n;
  const kept: number[] = [];
  let last = values.length - 1;
  let lastG = g[last];
  for (let i = values.length - 2; i >= 1; i--) {
    if (g[i] + lastG + delta[last] < threshold) {
      lastG += g[i];
    } else {
      kept.push(last, lastG);
      last = i;
      lastG = g[i];
    }
  }
  kept.push(last, lastG);
  if (last !== 0) kept.push(0, g[0]);
  const out: QuantileSummary = [n, s[1], [], [], []];
  for (let k = kept.length - 2; k >= 0; k -= 2)
    pushValue(out, values[kept[k]], kept[k + 1], delta[kept[k]]);
  copyInto(s, out);
}

function pushSample(
  to: QuantileSummary,
  from: QuantileSummary,
  i: number,
  extraDelta: number,
): void {
  pushValue(to, from[2][i], from[3][i], from[4][i] + extraDelta);
}

function pushValue(to: QuantileSummary, value: number, g: number, delta: number): void {
  to[2].push(value);
  to[3].push(g);
  to[4].push(delta);
}

function copyInto(to: QuantileSummary, from: QuantileSummary): QuantileSummary {
  to[0] = from[0];
  to[1] = from[1];
  to[2] = from[2];
  to[3] = from[3];
  to[4] = from[4];
  return to;
}

/** Ascending numbers with NaN last, as Spark orders doubles. */
function compareNumbers(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
}
