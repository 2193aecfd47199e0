import { maxElementDepth, OpenMensaFeedError, readOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FeedReadingBudgetError, readFeedInWorker } from '../src/feeds/worker-feed-reader.js';

// The server reads feeds in a thread of their own (the compiled one: `tsc -b` first, as `pnpm test` does).
const realFeed = readFileSync(
  fileURLToPath(
    new URL('../../../packages/adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
  ),
);

/** A feed of `days` × 500 meals: the most a feed may list is 10 000 (20 days). */
function largeFeed(days = 20): Uint8Array {
  const meals = Array.from(
    { length: 500 },
    (_, i) => `<meal><name>Meal ${i}</name><price role="student">2.50</price></meal>`,
  ).join('');
  const body = Array.from(
    { length: days },
    (_, d) =>
      `<day date="2027-01-${String(d + 1).padStart(2, '0')}"><category name="Hauptgerichte">${meals}</category></day>`,
  );
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2"><canteen>${body.join('')}</canteen></openmensa>\n`,
  );
}

describe('readFeedInWorker', () => {
  it('answers what readOpenMensaFeed answers on the request thread', async () => {
    expect(await readFeedInWorker(realFeed)).toEqual(readOpenMensaFeed(realFeed));
  });

  it('refuses a 400 000-deep document with the depth error, as an OpenMensaFeedError', async () => {
    const deep = `<?xml version="1.0"?>\n<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2">${'<a>'.repeat(400_000)}${'</a>'.repeat(400_000)}</openmensa>`;
    const refused = await readFeedInWorker(new TextEncoder().encode(deep)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenMensaFeedError);
    expect((refused as OpenMensaFeedError).problems).toEqual([
      { line: 2, message: expect.stringContaining(`nested more than ${maxElementDepth} deep`) },
    ]);
  });

  it('keeps the event loop turning while a 10 000-meal feed is read: a timer set after the read began fires before it ends', async () => {
    const events: string[] = [];
    const reading = readFeedInWorker(largeFeed()).then((feed) => events.push(`read ${feed.days.length} days`));
    setTimeout(() => events.push('timer'), 0);
    await new Promise<void>((resolve) => setImmediate(resolve));
    events.push('immediate');
    await reading;
    expect(events).toEqual(['immediate', 'timer', 'read 20 days']);
  });

  it('terminates a reading that outlives its time budget, with a FeedReadingBudgetError saying so', async () => {
    const stopped = await readFeedInWorker(largeFeed(), { timeMs: 1, heapMb: 256 }).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(FeedReadingBudgetError);
    expect((stopped as Error).message).toBe('reading the feed took longer than 1 ms: stopped, nothing imported');
  });

  it('terminates a reading that needs more heap than its budget', async () => {
    const stopped = await readFeedInWorker(largeFeed(), { timeMs: 60_000, heapMb: 4 }).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(FeedReadingBudgetError);
    expect((stopped as Error).message).toBe('reading the feed needed more than 4 MB: stopped, nothing imported');
  });
});
