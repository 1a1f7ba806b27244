/** Seeded PRNG for the demo agents (mulberry32): reproducible runs from one seed. Not for keys. */
export function createRng(seed: number): {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(xs: readonly T[]): T;
} {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (xs) => {
      if (xs.length === 0) throw new RangeError('xs must not be empty');
      return xs[Math.floor(next() * xs.length)];
    },
  };
}
