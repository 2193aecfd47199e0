import type { Canteen, CanteenId, CanteenRepository } from '@canteen-meals/domain';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryCanteenRepository implements CanteenRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async save(canteen: Canteen): Promise<{ readonly created: boolean }> {
    const created = !this.db.canteens.has(canteen.id);
    this.db.canteens.set(canteen.id, copyOf(canteen));
    return { created };
  }

  async find(id: CanteenId): Promise<Canteen | undefined> {
    const canteen = this.db.canteens.get(id);
    return canteen === undefined ? undefined : copyOf(canteen);
  }

  async list(): Promise<readonly Canteen[]> {
    return [...this.db.canteens.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(copyOf);
  }
}

function copyOf(canteen: Canteen): Canteen {
  return {
    ...canteen,
    coordinates: canteen.coordinates === null ? null : { ...canteen.coordinates },
    feeds: canteen.feeds.map((feed) => ({ ...feed })),
    noteLabels: { ...canteen.noteLabels },
    placeholderNames: [...(canteen.placeholderNames ?? [])],
  };
}
