import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import { anySchedule, validateCanteen, type Canteen, type CanteenId } from '../canteen/canteen.js';
import type { ScheduleCheck } from '../feed/canteen-feed.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

export const saveCanteenRefusals = ['invalid_canteen'] as const;

/** Creates a canteen or replaces all of its fields (admin). */
export class SaveCanteen {
  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly checkSchedule?: ScheduleCheck;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute(canteen: Canteen): Promise<Result<{ readonly canteen: Canteen; readonly created: boolean }, 'invalid_canteen'>> {
    const valid = validateCanteen(canteen, this.deps.checkSchedule ?? anySchedule);
    if (!valid.ok) return valid;
    const { created } = await this.deps.canteens.save(valid.value);
    // A canteen's time zone decides which meals its days hold.
    (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return accept({ canteen: valid.value, created });
  }
}

export const getCanteenRefusals = ['canteen_not_found'] as const;

export class GetCanteen {
  constructor(private readonly deps: { readonly canteens: CanteenRepository }) {}

  async execute(id: CanteenId): Promise<Result<Canteen, 'canteen_not_found'>> {
    const canteen = await this.deps.canteens.find(id);
    return canteen === undefined ? refuse('canteen_not_found') : accept(canteen);
  }
}

/** Every canteen, by id. */
export class ListCanteens {
  constructor(private readonly deps: { readonly canteens: CanteenRepository }) {}

  async execute(): Promise<readonly Canteen[]> {
    return this.deps.canteens.list();
  }
}
