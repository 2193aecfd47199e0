import { describe, expect, it } from 'vitest';
import { nextAvailability, UndoWindow, undoWindowMs, type Change } from '../src/dashboard/availability.js';
import { ManualScheduler } from './manual-scheduler.js';

describe('nextAvailability', () => {
  it('cycles available, few left, sold out, and back to available (a refill)', () => {
    expect(nextAvailability('available')).toBe('few_left');
    expect(nextAvailability('few_left')).toBe('sold_out');
    expect(nextAvailability('sold_out')).toBe('available');
  });
});

describe('UndoWindow', () => {
  const soldOut: Change = { mealId: 7, from: 'few_left', to: 'sold_out' };
  const setup = () => {
    const scheduler = new ManualScheduler();
    const heard: (Change | null)[] = [];
    const undo = new UndoWindow(scheduler, (offered) => heard.push(offered));
    return { scheduler, heard, undo };
  };

  it('offers a change for undo for 10 s, to the millisecond, then closes by itself', () => {
    const { scheduler, heard, undo } = setup();
    undo.offer(soldOut);
    expect(undoWindowMs).toBe(10_000);
    scheduler.advance(9_999);
    expect(undo.offered).toEqual(soldOut);
    scheduler.advance(1);
    expect(undo.offered).toBeNull();
    expect(undo.take()).toBeNull();
    expect(heard).toEqual([soldOut, null]);
  });

  it('hands the change back once when taken within the window, and forgets its timer', () => {
    const { scheduler, heard, undo } = setup();
    undo.offer(soldOut);
    scheduler.advance(5_000);
    expect(undo.take()).toEqual(soldOut);
    expect(undo.take()).toBeNull();
    expect(scheduler.pending).toBe(0);
    expect(heard).toEqual([soldOut, null]);
  });

  it('offers only the latest change, with a full window of its own', () => {
    const { scheduler, undo } = setup();
    const refill: Change = { mealId: 8, from: 'sold_out', to: 'available' };
    undo.offer(soldOut);
    scheduler.advance(8_000);
    undo.offer(refill);
    scheduler.advance(8_000);
    expect(undo.offered).toEqual(refill);
    expect(scheduler.pending).toBe(1);
    scheduler.advance(2_000);
    expect(undo.offered).toBeNull();
  });
});
