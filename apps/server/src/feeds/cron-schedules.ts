import type { NextRun, ScheduleCheck } from '@canteen-meals/domain/ports';
import { Cron } from 'croner';

// Cron expressions are read by croner (a maintained library, no hand-written parser): 5 fields, or 6 with seconds
// first, evaluated on the clocks of the canteen's time zone. `paused` keeps croner from arming timers of its own: the
// service only asks it when a schedule fires next.
const cronOf = (schedule: string, timeZone: string) =>
  new Cron(schedule, { timezone: timeZone, paused: true, mode: '5-or-6-parts' });

/** When the schedule next fires after `after`, or null when it never does again. */
export const nextRunOf: NextRun = (schedule, timeZone, after) => cronOf(schedule, timeZone).nextRun(after);

/**
 * What is wrong with a schedule, in croner's words; undefined when it is a cron expression that fires, at most once a
 * minute (a feed fetched every second is a load on its host and on the service, never fresher menus).
 */
export const checkSchedule: ScheduleCheck = (schedule, timeZone) => {
  if (schedule.length > 100) return 'has at most 100 characters';
  try {
    if (cronOf(schedule, timeZone).nextRun() === null) return 'never fires';
  } catch (error) {
    return `is not a cron expression: ${(error as Error).message}`;
  }
  return firesMoreThanOnceAMinute(schedule)
    ? 'fires more than once a minute: with 6 fields, the first (the seconds) must be one number, e.g. 0'
    : undefined;
};

/**
 * With 5 fields a schedule fires at most once a minute. With 6, the seconds come first: one number fires once in each
 * minute the other fields name; anything else (`*`, a list, a range, a step) more often.
 */
const firesMoreThanOnceAMinute = (schedule: string) => {
  const fields = schedule.trim().split(/\s+/);
  return fields.length === 6 && !/^\d{1,2}$/.test(fields[0]!);
};
