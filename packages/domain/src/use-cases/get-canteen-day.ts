import type { CanteenId } from '../canteen/canteen.js';
import type { LocalDate } from '../menu/local-time.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import { localDayOf } from '../calendar/local-day.js';
import { addDays } from '../menu/local-time.js';
import type { GetMealsDeps } from './get-meals.js';

/**
 * Which calendar day it is at a canteen, on its clocks, or some days ahead: what `today` and `tomorrow` in a request
 * mean there (a canteen in Auckland is a day ahead of one in Berlin for half of every day).
 */
export class GetCanteenDay {
  constructor(private readonly deps: Pick<GetMealsDeps, 'canteens' | 'clock'>) {}

  async execute(query: {
    readonly canteenId: CanteenId;
    readonly daysAhead: number;
  }): Promise<Result<LocalDate, 'canteen_not_found'>> {
    const canteen = await this.deps.canteens.find(query.canteenId);
    if (canteen === undefined) return refuse('canteen_not_found');
    return accept(addDays(localDayOf(this.deps.clock.now(), canteen.timeZone).date, query.daysAhead));
  }
}
