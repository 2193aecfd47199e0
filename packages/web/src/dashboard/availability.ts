import type { Scheduler, Cancel } from './scheduler.js';

/** How much of a serving is left, as the kitchen says it (the wire's `availability`). */
export const availabilities = ['available', 'few_left', 'sold_out'] as const;
export type Availability = (typeof availabilities)[number];

export const isAvailability = (value: unknown): value is Availability => availabilities.includes(value as Availability);

/** One tap moves a serving on: available, few left, sold out, and round again (a refill). */
export function nextAvailability(current: Availability): Availability {
  return availabilities[(availabilities.indexOf(current) + 1) % availabilities.length]!;
}

/** What a tap changed, so that it can be taken back. */
export interface Change {
  readonly mealId: number;
  readonly from: Availability;
  readonly to: Availability;
}

/** A kitchen's taps may be taken back for this long: long enough to see a mistake, short enough not to linger. */
export const undoWindowMs = 10_000;

/**
 * The last change, offered for undo until its window closes. One at a time: a new tap replaces the offer (the undo
 * button always names the latest change), and `listener` hears every offer and every close.
 */
export class UndoWindow {
  #offered: Change | null = null;
  #cancel: Cancel | null = null;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly listener: (offered: Change | null) => void,
    private readonly windowMs: number = undoWindowMs,
  ) {}

  get offered(): Change | null {
    return this.#offered;
  }

  offer(change: Change): void {
    this.#cancel?.();
    this.#offered = change;
    this.#cancel = this.scheduler.after(this.windowMs, () => this.#close());
    this.listener(change);
  }

  /** The change to take back (its `from` is the status to set again), or null once the window closed. */
  take(): Change | null {
    const change = this.#offered;
    if (change !== null) this.#close();
    return change;
  }

  #close(): void {
    this.#cancel?.();
    this.#cancel = null;
    this.#offered = null;
    this.listener(null);
  }
}
