/**
 * A column name not yet taken, for the columns a plan rewrite adds (the repartition stage's
 * computed keys and partial values). Names compare case-insensitively, as columns resolve.
 */

/** `name`, or `name_2`, `name_3`, ... : the first not among `taken` (which it joins). */
export function freshName(name: string, taken: string[]): string {
  const lower = new Set(taken.map((t) => t.toLowerCase()));
  let candidate = name;
  for (let n = 2; lower.has(candidate.toLowerCase()); n++) candidate = `${name}_${n}`;
  taken.push(candidate);
  return candidate;
}
