import type { Cancel, Scheduler } from './scheduler.js';

/** The wall shows this many meals at once: they fit 1920x1080 as 6 columns of 5 (wall.css). */
export const wallPageSize = 30;
/** More meals than that turn over by themselves this often: long enough to read a page across a room. */
export const wallPageEveryMs = 15_000;

/** The items in pages of `size`; an empty list is one empty page (the wall says "no meals"). */
export function pagesOf<Item>(items: readonly Item[], size: number = wallPageSize): Item[][] {
  if (items.length === 0) return [[]];
  const pages: Item[][] = [];
  for (let start = 0; start < items.length; start += size) pages.push(items.slice(start, start + size));
  return pages;
}

/**
 * Turns the pages of a list by itself: `show(index, count)` at once and every `everyMs` after, round and round. A
 * single page is shown once and no timer runs. `update` takes a new page count (a menu changed) and keeps the page
 * shown if it still exists.
 */
export class Pager {
  #index = 0;
  #count = 1;
  #cancel: Cancel | null = null;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly show: (index: number, count: number) => void,
    private readonly everyMs: number = wallPageEveryMs,
  ) {}

  update(count: number): void {
    this.#count = Math.max(1, count);
    if (this.#index >= this.#count) this.#index = 0;
    this.show(this.#index, this.#count);
    this.#schedule();
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = null;
  }

  #schedule(): void {
    this.stop();
    if (this.#count < 2) return;
    this.#cancel = this.scheduler.after(this.everyMs, () => {
      this.#index = (this.#index + 1) % this.#count;
      this.show(this.#index, this.#count);
      this.#schedule();
    });
  }
}
