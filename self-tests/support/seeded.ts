// A small seeded generator (xorshift32): the same seed always gives the same numbers, so that a generated list
// or a failing text can be made again.

export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

export type Random = ReturnType<typeof seeded>;

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
