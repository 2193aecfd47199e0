import { describe, expect, it } from 'vitest';
import { backoffMs, enqueue, queueFrom, type PendingAction } from '../src/app/model/pending.js';

describe('enqueue', () => {
  it('adds at the end', () => {
    const first: PendingAction = { kind: 'rate', meal_id: 1, rating: 4 };
    const second: PendingAction = { kind: 'mark', meal_id: 2, marked: true };
    expect(enqueue(enqueue([], first), second)).toEqual([first, second]);
  });

  it('keeps the last tap per meal and kind: rating 4 then 5 sends 5, in the place of the last tap', () => {
    let queue: readonly PendingAction[] = [];
    queue = enqueue(queue, { kind: 'rate', meal_id: 1, rating: 4 });
    queue = enqueue(queue, { kind: 'mark', meal_id: 1, marked: true });
    queue = enqueue(queue, { kind: 'rate', meal_id: 2, rating: 2 });
    queue = enqueue(queue, { kind: 'rate', meal_id: 1, rating: 5 });
    expect(queue).toEqual([
      { kind: 'mark', meal_id: 1, marked: true },
      { kind: 'rate', meal_id: 2, rating: 2 },
      { kind: 'rate', meal_id: 1, rating: 5 },
    ]);
    queue = enqueue(queue, { kind: 'mark', meal_id: 1, marked: false });
    queue = enqueue(queue, { kind: 'rate', meal_id: 1, rating: null });
    expect(queue).toEqual([
      { kind: 'rate', meal_id: 2, rating: 2 },
      { kind: 'mark', meal_id: 1, marked: false },
      { kind: 'rate', meal_id: 1, rating: null },
    ]);
  });

  it('leaves the queue given unchanged', () => {
    const queue: readonly PendingAction[] = [{ kind: 'rate', meal_id: 1, rating: 4 }];
    enqueue(queue, { kind: 'rate', meal_id: 1, rating: 5 });
    expect(queue).toEqual([{ kind: 'rate', meal_id: 1, rating: 4 }]);
  });
});

describe('queueFrom', () => {
  it('reads back the actions kept', () => {
    const queue: PendingAction[] = [
      { kind: 'rate', meal_id: 1, rating: 5 },
      { kind: 'rate', meal_id: 2, rating: null },
      { kind: 'mark', meal_id: 3, marked: false },
    ];
    expect(queueFrom(JSON.parse(JSON.stringify(queue)))).toEqual(queue);
  });

  it('is empty for anything not a list', () => {
    for (const value of [undefined, null, 'rate', 3, { kind: 'rate', meal_id: 1, rating: 5 }])
      expect(queueFrom(value)).toEqual([]);
  });

  it('drops the entries that are not actions, keeping the others in order', () => {
    const valid: PendingAction[] = [
      { kind: 'mark', meal_id: 7, marked: true },
      { kind: 'rate', meal_id: 8, rating: 1 },
    ];
    const junk: unknown[] = [
      null,
      'rate',
      5,
      [],
      {},
      { kind: 'rate', rating: 3 },
      { kind: 'rate', meal_id: 0, rating: 3 },
      { kind: 'rate', meal_id: -1, rating: 3 },
      { kind: 'rate', meal_id: 1.5, rating: 3 },
      { kind: 'rate', meal_id: '1', rating: 3 },
      { kind: 'rate', meal_id: 1 },
      { kind: 'rate', meal_id: 1, rating: 0 },
      { kind: 'rate', meal_id: 1, rating: 6 },
      { kind: 'rate', meal_id: 1, rating: 2.5 },
      { kind: 'rate', meal_id: 1, rating: '3' },
      { kind: 'mark', meal_id: 1 },
      { kind: 'mark', meal_id: 1, marked: 'yes' },
      { kind: 'mark', meal_id: 1, marked: null },
      { kind: 'hide', meal_id: 1, hidden: true },
      { meal_id: 1, rating: 3 },
    ];
    expect(queueFrom([junk[0], valid[0], ...junk.slice(1), valid[1]])).toEqual(valid);
  });
});

describe('backoffMs', () => {
  const low = () => 0;
  const high = () => 1;
  const middle = () => 0.5;

  it('waits 1 s first, doubling with each attempt', () => {
    expect([0, 1, 2, 3, 4].map((attempt) => backoffMs(attempt, middle))).toEqual([1000, 2000, 4000, 8000, 16_000]);
  });

  it('stops doubling at 30 s', () => {
    expect(backoffMs(5, middle)).toBe(30_000);
    expect(backoffMs(6, middle)).toBe(30_000);
    expect(backoffMs(100, middle)).toBe(30_000);
    expect(backoffMs(10_000, middle)).toBe(30_000);
  });

  it('jitters by a quarter either way: random 0 and 1 are the bounds', () => {
    expect(backoffMs(0, low)).toBe(750);
    expect(backoffMs(0, high)).toBe(1250);
    expect(backoffMs(1, low)).toBe(1500);
    expect(backoffMs(1, high)).toBe(2500);
    expect(backoffMs(4, low)).toBe(12_000);
    expect(backoffMs(4, high)).toBe(20_000);
    expect(backoffMs(50, low)).toBe(22_500);
    expect(backoffMs(50, high)).toBe(37_500);
  });

  it('takes an attempt below 0 as the first', () => {
    expect(backoffMs(-3, middle)).toBe(1000);
  });

  it('stays within the bounds with Math.random, in whole milliseconds', () => {
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const base = Math.min(30_000, 1000 * 2 ** attempt);
      for (let draw = 0; draw < 20; draw += 1) {
        const wait = backoffMs(attempt);
        expect(Number.isInteger(wait)).toBe(true);
        expect(wait).toBeGreaterThanOrEqual(base * 0.75);
        expect(wait).toBeLessThanOrEqual(base * 1.25);
      }
    }
  });
});
