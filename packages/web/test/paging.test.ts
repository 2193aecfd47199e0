import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Pager, pagesOf, wallPageEveryMs, wallPageSize } from '../src/dashboard/paging.js';
import { ManualScheduler } from './manual-scheduler.js';

const numbers = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

describe('pagesOf', () => {
  it('keeps up to 30 meals on one page and puts the 31st on a second', () => {
    expect(wallPageSize).toBe(30);
    expect(pagesOf(numbers(30))).toEqual([numbers(30)]);
    expect(pagesOf(numbers(31)).map((page) => page.length)).toEqual([30, 1]);
    expect(pagesOf([])).toEqual([[]]);
  });

  it('shows every item exactly once, in order, no page over the size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 40 }), (items, size) => {
        const pages = pagesOf(items, size);
        expect(pages.flat()).toEqual(items);
        expect(pages.every((page) => page.length <= size)).toBe(true);
      }),
    );
  });
});

describe('Pager', () => {
  const setup = () => {
    const scheduler = new ManualScheduler();
    const shown: string[] = [];
    const pager = new Pager(scheduler, (index, count) => shown.push(`${index + 1}/${count}`));
    return { scheduler, shown, pager };
  };

  it('turns 65 meals (3 pages) every 15 s by itself, round and round', () => {
    const { scheduler, shown, pager } = setup();
    pager.update(pagesOf(numbers(65)).length);
    expect(shown).toEqual(['1/3']);
    scheduler.advance(wallPageEveryMs - 1);
    expect(shown).toEqual(['1/3']);
    scheduler.advance(1);
    scheduler.advance(wallPageEveryMs * 2);
    expect(shown).toEqual(['1/3', '2/3', '3/3', '1/3']);
  });

  it('runs no timer for a single page, and keeps the page shown when the menu changes', () => {
    const { scheduler, shown, pager } = setup();
    pager.update(1);
    expect(scheduler.pending).toBe(0);
    pager.update(3);
    scheduler.advance(wallPageEveryMs * 2);
    pager.update(4);
    expect(shown).toEqual(['1/1', '1/3', '2/3', '3/3', '3/4']);
    expect(scheduler.pending).toBe(1);
    pager.update(2);
    expect(shown.at(-1)).toBe('1/2');
    pager.stop();
    expect(scheduler.pending).toBe(0);
  });
});
