import type { Clock } from '../shared/clock.js';
import type { UserId } from '../shared/user-id.js';
import type { UserData, UserDataRepository } from '../user-data/user-data-repository.js';

export interface UserDataExport extends UserData {
  readonly userId: UserId;
  readonly exportedAt: Date;
}

/** GDPR art. 15: everything the service holds for the user, each marking and rating with its meal. */
export class ExportUserData {
  constructor(private readonly deps: { readonly userData: UserDataRepository; readonly clock: Clock }) {}

  async execute({ userId }: { readonly userId: UserId }): Promise<UserDataExport> {
    const exportedAt = this.deps.clock.now();
    const data = await this.deps.userData.exportAll(userId);
    return { userId, exportedAt, markings: data.markings, ratings: data.ratings };
  }
}
