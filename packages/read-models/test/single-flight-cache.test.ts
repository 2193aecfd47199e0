import { describe, expect, it } from 'vitest';
import { type ReadResult, SingleFlightCache } from '../src/index.js';

/** A read that answers when the test says so, counting how often it ran. */
function heldRead<V>() {
  const pending: ((result: ReadResult<V>) => void)[] = [];
  const read = () => new Promise<ReadResult<V>>((resolve) => pending.push(resolve));
  return {
    read,
    get calls() {
      return pending.length;
    },
    answer(index: number, result: ReadResult<V>) {
      pending[index]!(result);
    },
  };
}

const kept = <V>(value: V, expiresAt: number, items?: readonly string[]): ReadResult<V> =>
  items === undefined ? { value, keep: true, expiresAt } : { value, keep: true, expiresAt, items };

describe('SingleFlightCache', () => {
  it('shares one read between the requests of a key at the same time, then serves the kept answer synchronously', async () => {
    const cache = new SingleFlightCache<string>({ entries: 10, touchedMaxAgeMs: 0 });
    const reads = heldRead<string>();
    const first = cache.get('a', 0, reads.read);
    const second = cache.get('a', 1, reads.read);
    expect(reads.calls).toBe(1);
    reads.answer(0, kept('A', 100));
    expect(await first).toBe('A');
    expect(await second).toBe('A');
    expect(cache.get('a', 99, reads.read)).toBe('A');
    expect(cache.peek('a', 99)).toBe('A');
    expect(reads.calls).toBe(1);
  });

  it('reads again at the answer expiry, and keeps nothing the read says not to keep', async () => {
    const cache = new SingleFlightCache<string>({ entries: 10, touchedMaxAgeMs: 0 });
    const reads = heldRead<string>();
    const first = cache.get('a', 0, reads.read);
    reads.answer(0, kept('A', 100));
    await first;
    expect(cache.peek('a', 100)).toBeUndefined();
    const second = cache.get('a', 100, reads.read);
    reads.answer(1, { value: 'refused', keep: false });
    expect(await second).toBe('refused');
    expect(cache.peek('a', 101)).toBeUndefined();
  });

  it('keeps nothing with 0 entries, yet still shares reads under way', async () => {
    const cache = new SingleFlightCache<string>({ entries: 0, touchedMaxAgeMs: 0 });
    const reads = heldRead<string>();
    const first = cache.get('a', 0, reads.read);
    const second = cache.get('a', 0, reads.read);
    reads.answer(0, kept('A', 100));
    expect([await first, await second]).toEqual(['A', 'A']);
    expect(cache.peek('a', 1)).toBeUndefined();
  });

  it('drops the answer kept longest when full', async () => {
    const cache = new SingleFlightCache<string>({ entries: 2, touchedMaxAgeMs: 0 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, 0, async () => kept(key.toUpperCase(), 100));
    expect(cache.size).toBe(2);
    expect(cache.peek('a', 1)).toBeUndefined();
    expect(cache.peek('b', 1)).toBe('B');
    expect(cache.peek('c', 1)).toBe('C');
  });

  it('invalidateAll drops every answer, and a read under way is neither joined nor kept', async () => {
    const cache = new SingleFlightCache<string>({ entries: 10, touchedMaxAgeMs: 1000 });
    await cache.get('a', 0, async () => kept('old', 100));
    const reads = heldRead<string>();
    const underWay = cache.get('b', 1, reads.read);
    cache.invalidateAll();
    expect(cache.peek('a', 2)).toBeUndefined();
    const after = cache.get('b', 2, reads.read);
    expect(reads.calls).toBe(2);
    reads.answer(0, kept('before', 100));
    reads.answer(1, kept('after', 100));
    expect(await underWay).toBe('before');
    expect(await after).toBe('after');
    expect(cache.peek('b', 3)).toBe('after');
  });

  it('invalidate(item) drops the answers showing it at once and supersedes the reads under way', async () => {
    const cache = new SingleFlightCache<string>({ entries: 10, touchedMaxAgeMs: 1000 });
    await cache.get('menu-1', 0, async () => kept('one', 100, ['meal:1', 'dish:7']));
    await cache.get('menu-2', 0, async () => kept('two', 100, ['meal:2']));
    const reads = heldRead<string>();
    const underWay = cache.get('menu-3', 1, reads.read);
    cache.invalidate('meal:1');
    expect(cache.peek('menu-1', 2)).toBeUndefined();
    expect(cache.peek('menu-2', 2)).toBe('two');
    const again = cache.get('menu-3', 2, reads.read);
    expect(reads.calls).toBe(2);
    reads.answer(0, kept('stale', 100, ['meal:3']));
    reads.answer(1, kept('fresh', 100, ['meal:3']));
    expect(await underWay).toBe('stale');
    expect(await again).toBe('fresh');
    expect(cache.peek('menu-3', 3)).toBe('fresh');
  });

  it('touch lets an answer be served at most touchedMaxAgeMs after its read', async () => {
    const cache = new SingleFlightCache<string>({ entries: 10, touchedMaxAgeMs: 50 });
    await cache.get('menu', 0, async () => kept('M', 1000, ['meal:1']));
    cache.touch(['meal:1'], 10);
    expect(cache.peek('menu', 49)).toBe('M');
    expect(cache.peek('menu', 50)).toBeUndefined();
  });

  it('touch drops at once with touchedMaxAgeMs 0, and a touched read under way is then not joined', async () => {
    const cache = new SingleFlightCache<string>({ entries: 10, touchedMaxAgeMs: 0 });
    await cache.get('menu', 0, async () => kept('M', 1000, ['meal:1']));
    cache.touch(['meal:1'], 10);
    expect(cache.peek('menu', 10)).toBeUndefined();
    const reads = heldRead<string>();
    const underWay = cache.get('other', 11, reads.read);
    cache.touch(['meal:9'], 12);
    const again = cache.get('other', 12, reads.read);
    expect(reads.calls).toBe(2);
    reads.answer(0, kept('before', 1000));
    reads.answer(1, kept('after', 1000));
    expect(await underWay).toBe('before');
    expect(await again).toBe('after');
    expect(cache.peek('other', 13)).toBe('after');
  });

  it('joins a touched read under way when answers may be served late, keeping it outdated from the touch', async () => {
    const cache = new SingleFlightCache<string>({ entries: 10, touchedMaxAgeMs: 50 });
    const reads = heldRead<string>();
    const first = cache.get('menu', 0, reads.read);
    cache.touch(['meal:1'], 5);
    const second = cache.get('menu', 6, reads.read);
    expect(reads.calls).toBe(1);
    reads.answer(0, kept('M', 1000, ['meal:1']));
    expect([await first, await second]).toEqual(['M', 'M']);
    expect(cache.peek('menu', 49)).toBe('M');
    expect(cache.peek('menu', 50)).toBeUndefined();
  });

  it('forgets a failed read: the next request reads again', async () => {
    const cache = new SingleFlightCache<string>({ entries: 10, touchedMaxAgeMs: 0 });
    await expect(cache.get('a', 0, () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('a', 1, async () => kept('A', 100))).toBe('A');
  });
});
