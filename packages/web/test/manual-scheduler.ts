import type { Cancel, Scheduler } from '../src/dashboard/scheduler.js';

/** A scheduler the test moves by hand: `advance(ms)` runs what falls due, in order, without sleeping. */
export class ManualScheduler implements Scheduler {
  #now = 0;
  #timers: { at: number; run: () => void; cancelled: boolean }[] = [];

  after(ms: number, run: () => void): Cancel {
    const timer = { at: this.#now + ms, run, cancelled: false };
    this.#timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  get pending(): number {
    return this.#timers.filter((timer) => !timer.cancelled).length;
  }

  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((timer) => !timer.cancelled && timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((timer) => timer !== due);
      this.#now = due.at;
      due.run();
    }
    this.#now = until;
  }
}
