import type { SharedHitCounter } from './shared-hit-counter.js';

/**
 * The same fixed windows as the shared count, counted in this process only: what the limiter falls back to while the
 * shared count cannot be reached (N instances then allow up to N times the rate, never an unlimited one). Keeps the
 * counts of the newest window only, and at most `maxKeys` of them (the least recently hit forgotten first).
 */
export class LocalHitCounter implements SharedHitCounter {
  private windowStartMs = Number.NEGATIVE_INFINITY;
  private readonly hits = new Map<string, number>();

  constructor(private readonly maxKeys = 10_000) {}

  async hit(key: string, windowStartMs: number): Promise<number> {
    return this.hitNow(key, windowStartMs);
  }

  /** `hit`, answered at once. */
  hitNow(key: string, windowStartMs: number): number {
    if (windowStartMs < this.windowStartMs) return 1; // a late hit of a window already forgotten: counted alone
    if (windowStartMs > this.windowStartMs) {
      this.windowStartMs = windowStartMs;
      this.hits.clear();
    }
    const count = (this.hits.get(key) ?? 0) + 1;
    this.hits.delete(key); // set again below, last: the Map's order is then the order of the latest hit
    this.hits.set(key, count);
    if (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
    return count;
  }
}
