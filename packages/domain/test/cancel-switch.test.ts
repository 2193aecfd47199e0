import { describe, expect, it } from 'vitest';
import { CancelSwitch } from '../src/feed/cancel-switch.js';

// The signal a scheduled fetch gets: its deadline fires it, and so does the service stopping, until the fetch ends.
describe('CancelSwitch', () => {
  it('fires its listeners once, with its parent, and no longer follows the parent once released', () => {
    const stopping = new AbortController();
    const heard: string[] = [];
    const first = new CancelSwitch(stopping.signal);
    const released = new CancelSwitch(stopping.signal);
    first.addEventListener('abort', () => heard.push('first'));
    released.addEventListener('abort', () => heard.push('released'));
    released.release();

    stopping.abort();
    first.cancel();
    expect(heard).toEqual(['first']);
    expect([first.aborted, released.aborted]).toEqual([true, false]);
    expect(new CancelSwitch(stopping.signal).aborted).toBe(true); // made after the service began to stop
  });

  it('calls no listener that was removed, nor one added after it fired', () => {
    const deadline = new CancelSwitch();
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    deadline.addEventListener('abort', removed);
    deadline.removeEventListener('abort', removed);
    deadline.cancel();
    deadline.addEventListener('abort', () => heard.push('late'));
    deadline.cancel();
    expect(heard).toEqual([]);
  });
});
