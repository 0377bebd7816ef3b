// A bounded memory of values made from their keys: a fleet's targets share their tokens, and their reports the
// same short texts, so what is made once for them is kept, the least recently used dropped past the bound.

/** The value of `key`, made by `make` the first time and kept among the `limit` most recently used ones. */
export function remembered<K, V extends NonNullable<unknown>>(kept: Map<K, V>, key: K, limit: number, make: () => V): V {
  const known = kept.get(key);
  if (known !== undefined) {
    // Moved last in the Map's order, so that its first key is always the least recently used.
    kept.delete(key);
    kept.set(key, known);
    return known;
  }
  const made = make();
  kept.set(key, made);
  if (kept.size > limit) kept.delete(kept.keys().next().value as K);
  return made;
}
