import type { Canteen, CanteenId, CanteenRecord, CanteenRepository } from '@canteen-meals/domain';
import { InMemoryDatabase } from './in-memory-database.js';

export class InMemoryCanteenRepository implements CanteenRepository {
  constructor(private readonly db: InMemoryDatabase = new InMemoryDatabase()) {}

  async save(canteen: Canteen): Promise<{ readonly created: boolean }> {
    const created = !this.db.canteens.has(canteen.id);
    this.db.canteens.set(canteen.id, copyOf(canteen));
    this.db.canteenArchivedAt.delete(canteen.id);
    return { created };
  }

  async find(id: CanteenId): Promise<Canteen | undefined> {
    const canteen = this.db.canteens.get(id);
    return canteen === undefined || this.db.canteenArchivedAt.has(id) ? undefined : copyOf(canteen);
  }

  async list(): Promise<readonly Canteen[]> {
    return this.byId().filter((canteen) => !this.db.canteenArchivedAt.has(canteen.id)).map(copyOf);
  }

  async archive(id: CanteenId, at: Date): Promise<Date | undefined> {
    if (!this.db.canteens.has(id)) return undefined;
    if (!this.db.canteenArchivedAt.has(id)) this.db.canteenArchivedAt.set(id, new Date(at.getTime()));
    return new Date(this.db.canteenArchivedAt.get(id)!.getTime());
  }

  async listWithArchived(): Promise<readonly CanteenRecord[]> {
    return this.byId().map((canteen) => {
      const archivedAt = this.db.canteenArchivedAt.get(canteen.id);
      return { ...copyOf(canteen), archivedAt: archivedAt === undefined ? null : new Date(archivedAt.getTime()) };
    });
  }

  private byId(): Canteen[] {
    return [...this.db.canteens.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

function copyOf(canteen: Canteen): Canteen {
  return {
    ...canteen,
    coordinates: canteen.coordinates === null ? null : { ...canteen.coordinates },
    feeds: canteen.feeds.map((feed) => ({ ...feed })),
  };
}
