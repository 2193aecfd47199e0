/** Time is a port so that tests can stand exactly on a boundary. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
