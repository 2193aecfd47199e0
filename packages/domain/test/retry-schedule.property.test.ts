import {
  defaultWebhookRetryBaseMs,
  disablesEndpoint,
  nextAttemptAt,
  retryDelayMs,
  webhookDisableAfterMs,
  webhookRetryCapMs,
  webhookRetryPeriodMs,
} from '@canteen-meals/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const fixed = (value: number) => () => value;
const nominal = (failures: number, baseMs: number) => Math.min(baseMs * 2 ** (failures - 1), webhookRetryCapMs);

const failures = fc.integer({ min: 1, max: 200 });
const base = fc.integer({ min: 1, max: 3_600_000 });
/** [0, 1), as Math.random answers: fast-check's doubles include 0 and come as close to 1 as a double gets. */
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const instant = fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2040-01-01T00:00:00Z') });

describe('the retry delay', () => {
  it('is the nominal delay times 0.5 to 1.5, never above 6 h, for any attempt, base and random number', () => {
    fc.assert(
      fc.property(failures, base, unit, (n, baseMs, r) => {
        const delay = retryDelayMs(n, { baseMs, random: fixed(r) });
        expect(delay).toBe(Math.min(Math.round(nominal(n, baseMs) * (0.5 + r)), webhookRetryCapMs));
        expect(delay).toBeGreaterThanOrEqual(Math.floor(nominal(n, baseMs) / 2));
        expect(delay).toBeLessThanOrEqual(webhookRetryCapMs);
        expect(delay).toBeGreaterThan(0);
      }),
    );
  });

  it('never shrinks from one failure to the next under the same random number', () => {
    fc.assert(
      fc.property(failures, base, unit, (n, baseMs, r) => {
        const settings = { baseMs, random: fixed(r) };
        expect(retryDelayMs(n + 1, settings)).toBeGreaterThanOrEqual(retryDelayMs(n, settings));
      }),
    );
  });

  it('doubles from the base (30 s by default) until it reaches 6 h, with the jitter at its middle', () => {
    const settings = { baseMs: defaultWebhookRetryBaseMs, random: fixed(0.5) };
    const delays = Array.from({ length: 12 }, (_, index) => retryDelayMs(index + 1, settings));
    expect(delays).toEqual([
      30_000,
      60_000,
      2 * minute,
      4 * minute,
      8 * minute,
      16 * minute,
      32 * minute,
      64 * minute,
      128 * minute,
      256 * minute,
      6 * hour,
      6 * hour,
    ]);
  });

  it('spreads from half to one and a half times the nominal delay', () => {
    expect(retryDelayMs(1, { baseMs: 30_000, random: fixed(0) })).toBe(15_000);
    expect(retryDelayMs(1, { baseMs: 30_000, random: fixed(0.999_999) })).toBe(45_000);
    // At the cap, the upper half of the spread is cut off: never more than 6 h.
    expect(retryDelayMs(11, { baseMs: 30_000, random: fixed(0) })).toBe(3 * hour);
    expect(retryDelayMs(11, { baseMs: 30_000, random: fixed(0.9) })).toBe(6 * hour);
  });
});

describe('the next attempt', () => {
  it('comes after the delay, unless that is later than 3 days after the first attempt: then never', () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 0, max: 4 * day }),
        failures,
        base,
        unit,
        (first, elapsed, n, baseMs, r) => {
          const settings = { baseMs, random: fixed(r) };
          const at = new Date(first + elapsed);
          const next = nextAttemptAt({ firstAttemptAt: new Date(first), failedAttempts: n, at }, settings);
          const retryAt = at.getTime() + retryDelayMs(n, settings);
          expect(next).toEqual(retryAt > first + webhookRetryPeriodMs ? null : new Date(retryAt));
        },
      ),
    );
  });

  it('ends every delivery that keeps failing: all its attempts lie within 3 days of the first', () => {
    fc.assert(
      fc.property(instant, base, fc.array(unit, { minLength: 1, maxLength: 50 }), (first, baseMs, randoms) => {
        let draw = 0;
        const settings = { baseMs, random: () => randoms[draw++ % randoms.length]! };
        const attempts = [new Date(first)];
        for (let next: Date | null = attempts[0]!; next !== null; ) {
          next = nextAttemptAt(
            { firstAttemptAt: attempts[0]!, failedAttempts: attempts.length, at: attempts.at(-1)! },
            settings,
          );
          if (next !== null) attempts.push(next);
          expect(attempts.length).toBeLessThan(5_000);
        }
        expect(attempts.at(-1)!.getTime()).toBeLessThanOrEqual(first + webhookRetryPeriodMs);
        for (const [index, attempt] of attempts.slice(1).entries())
          expect(attempt.getTime()).toBeGreaterThan(attempts[index]!.getTime());
      }),
    );
  });

  it('makes 21 attempts over 3 days with the default base and the jitter at its middle', () => {
    const settings = { baseMs: defaultWebhookRetryBaseMs, random: fixed(0.5) };
    const first = new Date('2026-09-01T08:00:00Z');
    const attempts = [first];
    for (let at: Date | null = first; at !== null; ) {
      at = nextAttemptAt({ firstAttemptAt: first, failedAttempts: attempts.length, at }, settings);
      if (at !== null) attempts.push(at);
    }
    // 10 doublings reach 8 h 31.5 min; then every 6 h, while it stays within 72 h of the first attempt.
    expect(attempts).toHaveLength(21);
    expect(attempts[10]!.getTime() - first.getTime()).toBe(8 * hour + 31.5 * minute);
    expect(attempts[20]!.getTime() - first.getTime()).toBe(68 * hour + 31.5 * minute);
  });
});

describe('disabling an endpoint', () => {
  const at = new Date('2026-09-04T08:00:00Z');

  it('happens on a failure exactly 3 days after the failing began, not a millisecond earlier', () => {
    expect(disablesEndpoint(new Date(at.getTime() - webhookDisableAfterMs), at)).toBe(true);
    expect(disablesEndpoint(new Date(at.getTime() - webhookDisableAfterMs + 1), at)).toBe(false);
  });

  it('never happens on the first failure since a success or a PUT', () => {
    expect(disablesEndpoint(null, at)).toBe(false);
  });

  it('follows failingSince ≤ at − 3 days for any instants', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -day, max: 10 * day }), (since, elapsed) => {
        expect(disablesEndpoint(new Date(since), new Date(since + elapsed))).toBe(elapsed >= webhookDisableAfterMs);
      }),
    );
  });
});
