import { FixedClock } from '@canteen-meals/adapters-memory';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createHmacTokenVerifier, signHmacToken, windowStartOf, type SharedHitCounter } from '../src/index.js';
import { buildAppWith, markMealRequest } from './app-with.js';

const secret = 'shared-rate-limits-secret-of-32-bytes!!';
const verifyToken = createHmacTokenVerifier({ secret });
const alice = `Bearer ${signHmacToken(secret, { sub: 'alice' })}`;

/** A shared count in a Map that can be told to fail, as a database outage would make it. */
class SwitchableCounter implements SharedHitCounter {
  failing = false;
  calls = 0;
  readonly hits = new Map<string, number>();

  async hit(key: string, windowStartMs: number): Promise<number> {
    this.calls += 1;
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const id = `${windowStartMs}/${key}`;
    this.hits.set(id, (this.hits.get(id) ?? 0) + 1);
    return this.hits.get(id)!;
  }
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function appOver(counter: SharedHitCounter, clock: FixedClock, events: string[]) {
  ({ app } = await buildAppWith({
    verifyToken,
    clock,
    rateLimits: { userPerMinute: 3, ipPerMinute: 100 },
    sharedRateLimits: {
      counter,
      fallbackMs: 5_000,
      onFallback: (error) => events.push(`fallback: ${error.message}`),
      onRecovered: () => events.push('recovered'),
    },
  }));
  return () => app!.inject(markMealRequest(alice));
}

describe('rate limits over a shared count', () => {
  it('asks the shared count with windows aligned to the minute, and refuses past the limit', async () => {
    const counter = new SwitchableCounter();
    const clock = new FixedClock('2026-03-02T12:00:30.000Z');
    const mark = await appOver(counter, clock, []);
    counter.hits.set(`${Date.parse('2026-03-02T12:00:00.000Z')}/user:alice`, 2); // another instance's two requests
    expect((await mark()).statusCode).toBe(200);
    const refused = await mark();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
  });

  it('counts on its own while the shared count fails (one warning), and goes back to it after fallbackMs', async () => {
    const counter = new SwitchableCounter();
    const clock = new FixedClock('2026-03-02T12:00:10.000Z');
    const events: string[] = [];
    const mark = await appOver(counter, clock, events);
    counter.failing = true;
    expect([
      (await mark()).statusCode,
      (await mark()).statusCode,
      (await mark()).statusCode,
      (await mark()).statusCode,
    ]).toEqual([200, 200, 200, 429]);
    expect(events).toEqual(['fallback: connect ECONNREFUSED 127.0.0.1:5432']);
    expect(counter.calls).toBe(1); // not asked again while falling back: no wait on a dead database per request

    counter.failing = false;
    clock.advance(4_999);
    expect((await mark()).statusCode).toBe(429);
    expect(counter.calls).toBe(1);
    clock.advance(1);
    expect((await mark()).statusCode).toBe(200); // the shared count has seen one request of alice's in this minute
    expect(events).toEqual(['fallback: connect ECONNREFUSED 127.0.0.1:5432', 'recovered']);
  });

  it('aligns windows to multiples of their length', () => {
    expect(windowStartOf(Date.parse('2026-03-02T12:00:59.999Z'), 60_000)).toBe(Date.parse('2026-03-02T12:00:00.000Z'));
    expect(windowStartOf(Date.parse('2026-03-02T12:01:00.000Z'), 60_000)).toBe(Date.parse('2026-03-02T12:01:00.000Z'));
  });
});
