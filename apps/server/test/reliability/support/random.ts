/** mulberry32: a small seeded generator, so that a failing load run can be replayed with its seed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    integer: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

/** A rating request: 1..5 sets or replaces, null deletes. */
export const ratingChoices = [1, 2, 3, 4, 5, null] as const;
export type RatingChoice = (typeof ratingChoices)[number];

/** A seed from the environment (RELIABILITY_SEED) to replay a run, else a fresh one that the test prints. */
export function loadSeed(): number {
  const given = Number(process.env.RELIABILITY_SEED);
  return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
}
