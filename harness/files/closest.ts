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

/** A name's words: CONFORMANCE_BASE_URL is CONFORMANCE, BASE and URL; expired-token-enabled three too. */
const wordsOf = (name: string) => name.split(/[_\-.\s]+/).filter(Boolean);

/** Whether a word is one of a name's, or a slip of one: a letter off in a word of four letters or more. */
const hasWord = (words: string[], word: string) => words.some((w) => w === word || (word.length >= 4 && distance(w, word) <= 1));

/** How many of the name's words the known name lacks. */
const lacking = (name: string, known: string) => {
  const words = wordsOf(known);
  return wordsOf(name).filter((word) => !hasWord(words, word)).length;
};

/**
 * The known name nearest to a misspelt one, when it is near enough to be meant. Words count first: a name whose
 * every word the known one has (a `_URL` setting for `_BASE_URL`, a word left out) is meant before one a
 * few letters away that shares fewer (CONFORMANCE_SHARD); among those alike, the fewest edits. A name is near
 * enough when the known one has all its words (two or more), or is a third of its length of edits away.
 */
export function closest(name: string, known: string[]): string | undefined {
  const [best] = known.map((k) => ({ k, lacks: lacking(name, k), d: distance(name, k) })).sort((x, y) => x.lacks - y.lacks || x.d - y.d);
  if (!best) return undefined;
  const allWords = best.lacks === 0 && wordsOf(name).length >= 2;
  return allWords || best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.k : undefined;
}
