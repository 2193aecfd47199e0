import {
  emptyHistogram,
  type AvailabilityStatus,
  type MealReading,
  type MenuDays,
  type PublicMenu,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { LiveFanOut } from '../src/index.js';
import { LiveStats, type LiveScheduler, type LiveSubscriber } from '../src/index.js';

/** The turns of the event loop, run by hand: a test sees what each turn writes, and never waits for one. */
class Turns {
  private readonly waiting: (() => void)[] = [];
  readonly defer = (callback: () => void) => void this.waiting.push(callback);

  get pending(): number {
    return this.waiting.length;
  }

  /** Runs one turn's callbacks (those they defer wait for the next turn). */
  runOne(): void {
    for (const callback of this.waiting.splice(0)) callback();
  }

  /** Runs turns until nothing is deferred; answers how many ran. */
  runAll(): number {
    let turns = 0;
    while (this.waiting.length > 0) {
      this.runOne();
      turns += 1;
    }
    return turns;
  }
}

/** A stream that records each write; `backedUp` as a test sets it (a socket whose client does not read). */
class RecordingStream implements LiveSubscriber {
  readonly writes: string[] = [];
  backedUp = false;
  ended = false;

  send(frames: string): void {
    this.writes.push(frames);
  }

  end(): void {
    this.ended = true;
  }

  /** Every frame written, in order. */
  get frames(): string[] {
    return this.writes
      .join('')
      .split('\n\n')
      .filter((frame) => frame !== '');
  }
}

const frame = (text: string) => `${text}\n\n`;

describe('LiveFanOut: the frames of many streams, coalesced per stream and written in batches', () => {
  const channel = {};
  const fanOutOf = (turns: Turns, batchSize: number, streams: readonly RecordingStream[]) => {
    const fanOut = new LiveFanOut<RecordingStream>(turns.defer, batchSize);
    for (const stream of streams) fanOut.join(channel, stream);
    return fanOut;
  };

  it('keeps the last frame of each key a stream waits for, and everything else in order, in one write', () => {
    const turns = new Turns();
    const stream = new RecordingStream();
    const fanOut = fanOutOf(turns, 64, [stream]);

    fanOut.queue(channel, 'availability:1', frame('meal 1 few_left'));
    fanOut.queue(channel, 'stats:2', frame('meal 2 stats'));
    fanOut.queue(channel, 'availability:1', frame('meal 1 sold_out'));
    fanOut.queue(channel, 'availability:3', frame('meal 3 few_left'));
    expect(stream.writes).toEqual([]);
    turns.runAll();

    // The replaced frame moves to the end: what a stream reads keeps the order of the events it shows.
    expect(stream.writes).toHaveLength(1);
    expect(stream.frames).toEqual(['meal 2 stats', 'meal 1 sold_out', 'meal 3 few_left']);
  });

  it('lets a snapshot replace whatever a stream still waits for; what follows it comes after it', () => {
    const turns = new Turns();
    const stream = new RecordingStream();
    const fanOut = fanOutOf(turns, 64, [stream]);
    fanOut.queue(channel, 'availability:1', frame('meal 1 sold_out'));
    fanOut.queue(channel, 'snapshot', frame('snapshot'));
    fanOut.queue(channel, 'availability:1', frame('meal 1 available'));
    turns.runAll();
    expect(stream.frames).toEqual(['snapshot', 'meal 1 available']);
  });

  it('writes a batch of streams per turn and yields between batches; frames queued meanwhile follow', () => {
    const turns = new Turns();
    const streams = Array.from({ length: 5 }, () => new RecordingStream());
    const fanOut = fanOutOf(turns, 2, streams);
    fanOut.queue(channel, 'availability:1', frame('meal 1 sold_out'));

    const writtenAfterEachTurn: number[] = [];
    turns.runOne();
    writtenAfterEachTurn.push(streams.filter((stream) => stream.writes.length > 0).length);
    fanOut.queue(channel, 'availability:2', frame('meal 2 sold_out'));
    while (turns.pending > 0) {
      turns.runOne();
      writtenAfterEachTurn.push(streams.filter((stream) => stream.writes.length > 0).length);
    }
    expect(writtenAfterEachTurn.slice(0, 3)).toEqual([2, 4, 5]);
    for (const stream of streams) expect(stream.frames).toEqual(['meal 1 sold_out', 'meal 2 sold_out']);
    expect(fanOut.streamsBehind).toBe(0);
  });

  it('does not hold the others for a stream slow to drain; that stream gets the last states once it drains', () => {
    const turns = new Turns();
    const slow = new RecordingStream();
    const others = [new RecordingStream(), new RecordingStream()];
    const fanOut = fanOutOf(turns, 64, [slow, ...others]);
    slow.backedUp = true;

    for (const status of ['few_left', 'sold_out', 'available', 'sold_out']) {
      fanOut.queue(channel, 'availability:1', frame(`meal 1 ${status}`));
      fanOut.queue(channel, 'availability:2', frame(`meal 2 ${status}`));
      turns.runAll();
    }
    for (const other of others) expect(other.writes).toHaveLength(4);
    expect([slow.writes, fanOut.streamsBehind]).toEqual([[], 1]);

    slow.backedUp = false;
    fanOut.drained(slow);
    turns.runAll();
    expect(slow.frames).toEqual(['meal 1 sold_out', 'meal 2 sold_out']);
    expect(fanOut.streamsBehind).toBe(0);
  });

  it('paced: the first change goes out at once, the rest of a burst at the end of the interval, coalesced', () => {
    const turns = new Turns();
    const timers = new HandTimers();
    const stream = new RecordingStream();
    const fanOut = new LiveFanOut<RecordingStream>(turns.defer, 64, {
      intervalMs: 100,
      setTimeout: (callback, ms) => timers.setTimeout(callback, ms),
    });
    fanOut.join(channel, stream);

    fanOut.queue(channel, 'availability:1', frame('meal 1 few_left'));
    turns.runAll();
    expect(stream.frames).toEqual(['meal 1 few_left']);
    for (const status of ['sold_out', 'available', 'sold_out'])
      fanOut.queue(channel, 'availability:1', frame(`meal 1 ${status}`));
    fanOut.queue(channel, 'availability:2', frame('meal 2 few_left'));
    turns.runAll();
    expect(stream.writes).toHaveLength(1);

    settle(turns, timers);
    expect(stream.writes).toHaveLength(2);
    expect(stream.frames).toEqual(['meal 1 few_left', 'meal 1 sold_out', 'meal 2 few_left']);
  });

  it('writes nothing more to a stream that left, nor what was queued before a stream joined', () => {
    const turns = new Turns();
    const gone = new RecordingStream();
    const fanOut = fanOutOf(turns, 64, [gone]);
    fanOut.queue(channel, 'availability:1', frame('meal 1 sold_out'));
    fanOut.leave(gone);
    const joined = new RecordingStream();
    fanOut.join(channel, joined);
    fanOut.queue(channel, 'availability:2', frame('meal 2 sold_out'));
    turns.runAll();
    expect([gone.writes, joined.frames]).toEqual([[], ['meal 2 sold_out']]);
  });
});

/**
 * Timers fired by hand: the fan-out's pacing interval passes when a test says so. Only the short ones (the pacing,
 * the statistics' window) are fired: the heartbeat, which sets itself again, would never let a test settle.
 */
class HandTimers implements LiveScheduler {
  private waiting = new Map<number, { readonly callback: () => void; readonly ms: number }>();
  private next = 1;

  get pending(): number {
    return [...this.waiting.values()].filter((timer) => timer.ms < 1000).length;
  }

  setTimeout(callback: () => void, ms = 0): unknown {
    this.waiting.set(this.next, { callback, ms });
    return this.next++;
  }

  clearTimeout(handle: unknown): void {
    this.waiting.delete(handle as number);
  }

  fireAll(): void {
    const due = [...this.waiting].filter(([, timer]) => timer.ms < 1000);
    for (const [id] of due) this.waiting.delete(id);
    for (const [, timer] of due) timer.callback();
  }
}

/** Runs turns and fires timers until nothing more is waiting. */
function settle(turns: Turns, timers: HandTimers): void {
  while (turns.pending > 0 || timers.pending > 0) {
    turns.runAll();
    timers.fireAll();
  }
}

const days: MenuDays = {
  canteenId: 'default' as MenuDays['canteenId'],
  from: '2026-03-10' as MenuDays['from'],
  to: '2026-03-10' as MenuDays['to'],
};

/**
 * A day's reading with only what the live registry reads of it: the meal, its histograms, its dish, its availability.
 */
function menuOf(mealIds: readonly number[]): PublicMenu {
  const meals = mealIds.map(
    (id) =>
      ({
        meal: { id },
        distribution: emptyHistogram,
        dish: { id: 1000 + id, histogram: emptyHistogram },
        availability: { status: 'available', changedAt: null },
      }) as unknown as MealReading,
  );
  return { meals, closedDays: [], asOf: new Date(0) };
}

/** Each meal's availability as a stream's frames leave it: the snapshot, then the events in order. */
function finalStates(stream: RecordingStream): Map<number, string> {
  const states = new Map<number, string>();
  for (const text of stream.frames) {
    const data = /^data: (.*)$/m.exec(text)?.[1];
    if (data === undefined) continue;
    if (text.includes('event: snapshot')) {
      for (const meal of JSON.parse(data).meals as { meal_id: number; availability: string }[])
        states.set(meal.meal_id, meal.availability);
    } else if (text.includes('event: availability')) {
      const event = JSON.parse(data) as { meal_id: number; availability: string };
      states.set(event.meal_id, event.availability);
    }
  }
  return states;
}

describe('LiveStats under a burst of availability changes', () => {
  it("reflects every change in each stream's final state, with a write per stream per turn, not per change", async () => {
    const turns = new Turns();
    const timers = new HandTimers();
    const mealIds = Array.from({ length: 50 }, (_, i) => i + 1);
    const live = new LiveStats(async () => ({ ok: true, value: menuOf(mealIds) }), {
      coalesceMs: 250,
      heartbeatMs: 15_000,
      replayEvents: 256,
      scheduler: timers,
      defer: turns.defer,
      writeBatch: 64,
    });
    const streams = Array.from({ length: 500 }, () => new RecordingStream());
    for (const stream of streams) await live.subscribe(days, undefined, () => stream);

    const statuses: AvailabilityStatus[] = ['few_left', 'sold_out', 'available'];
    const last = new Map<number, string>();
    for (let tap = 0; tap < 2000; tap++) {
      const mealId = mealIds[tap % mealIds.length]!;
      const status = statuses[Math.floor(tap / mealIds.length) % statuses.length]!;
      last.set(mealId, status);
      live.onChange({
        kind: 'availability',
        mealId: mealId as never,
        availability: { status, changedAt: new Date(tap) },
      });
      // A few taps land between two turns, as requests do between the fan-out's batches; the pacing interval passes
      // every 100 taps.
      if (tap % 7 === 6) turns.runOne();
      if (tap % 100 === 99) timers.fireAll();
    }
    settle(turns, timers);

    for (const stream of streams) expect(finalStates(stream)).toEqual(last);
    // 2000 events, 500 streams: without coalescing a million frames; each turn writes a stream at most once.
    const written = streams.reduce((sum, stream) => sum + stream.frames.length - 1, 0);
    expect(written).toBeLessThan(2000 * 500);
    expect(live.streamsBehind).toBe(0);
  });

  it('delivers events of different meals in the order they happened, ids rising along each stream', async () => {
    const turns = new Turns();
    const timers = new HandTimers();
    const live = new LiveStats(async () => ({ ok: true, value: menuOf([1, 2, 3]) }), {
      coalesceMs: 250,
      heartbeatMs: 15_000,
      replayEvents: 256,
      scheduler: timers,
      defer: turns.defer,
    });
    const stream = new RecordingStream();
    await live.subscribe(days, undefined, () => stream);
    const tap = (mealId: number, status: AvailabilityStatus) =>
      live.onChange({
        kind: 'availability',
        mealId: mealId as never,
        availability: { status, changedAt: new Date(0) },
      });
    tap(1, 'few_left');
    tap(2, 'few_left');
    tap(1, 'sold_out');
    tap(3, 'sold_out');
    settle(turns, timers);

    const events = stream.frames.slice(1);
    expect(events.map((text) => JSON.parse(/^data: (.*)$/m.exec(text)![1]!))).toEqual([
      { meal_id: 2, availability: 'few_left', availability_changed_at: new Date(0).toISOString() },
      { meal_id: 1, availability: 'sold_out', availability_changed_at: new Date(0).toISOString() },
      { meal_id: 3, availability: 'sold_out', availability_changed_at: new Date(0).toISOString() },
    ]);
    const ids = events.map((text) => Number(/^id: \S+\.(\d+)$/m.exec(text)![1]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
});
