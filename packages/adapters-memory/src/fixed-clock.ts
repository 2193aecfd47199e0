import type { Clock } from '@canteen-meals/domain/ports';

/** A clock that moves only when told, so a test can stand on a boundary to the millisecond. */
export class FixedClock implements Clock {
  private instant: number;

  constructor(instant: Date | string | number) {
    this.instant = new Date(instant).getTime();
  }

  now(): Date {
    return new Date(this.instant);
  }

  set(instant: Date | string | number): void {
    this.instant = new Date(instant).getTime();
  }

  advance(ms: number): void {
    this.instant += ms;
  }
}
