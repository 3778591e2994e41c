/**
 * The known name closest to a misspelt one, for "did you mean" in error messages: the fewest
 * single-character edits (insertions, deletions, substitutions; case ignored), and few enough for
 * the name to be recognizable: at most two or a third of its length, and fewer than its length.
 */

/** The known name closest to `name`, or undefined when none is close. */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  const limit = Math.min(Math.max(2, Math.floor(wanted.length / 3)), wanted.length - 1);
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance > 0 && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}
