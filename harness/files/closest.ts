/** Edit distance between two names (insertions, deletions, substitutions), for suggesting a misspelt one. */
export function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/** The known name nearest to a misspelt one, when it is near enough to be meant (a third of its length). */
export function closest(name: string, known: string[]): string | undefined {
  const [best] = known.map((k) => ({ k, d: distance(name, k) })).sort((x, y) => x.d - y.d);
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.k : undefined;
}
