/**
 * The port of a rate-limit count that every instance of the service shares (PostgreSQL implements it; no database
 * is known here). Windows are fixed and aligned: every instance puts a hit at instant t into the window that starts
 * at `t - t % windowMs`, so they all add to the same count.
 */
export interface SharedHitCounter {
  /**
   * Adds one hit to `key` in the window `[windowStartMs, windowStartMs + windowMs)` and answers how many hits that
   * window holds now, this one included, from every instance. Rejects when the shared count cannot be reached.
   */
  hit(key: string, windowStartMs: number, windowMs: number): Promise<number>;
}

/** The start of the fixed window of `windowMs` that holds the instant `atMs`. */
export function windowStartOf(atMs: number, windowMs: number): number {
  return atMs - (((atMs % windowMs) + windowMs) % windowMs);
}
