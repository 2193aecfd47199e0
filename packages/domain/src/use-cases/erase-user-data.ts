import type { PushStore } from '../push/push-ports.js';
import type { PreferenceRepository } from '../preference/preference-repository.js';
import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import type { UserId } from '../shared/user-id.js';
import type { ErasedUserData, UserDataRepository } from '../user-data/user-data-repository.js';

/**
 * GDPR art. 17: forgets every marking and rating of the user. The meals' statistics lose those ratings in the same
 * transaction, also for meals that can no longer be rated. Erasing twice is erasing once.
 */
export class EraseUserData {
  constructor(
    private readonly deps: {
      readonly userData: UserDataRepository;
      readonly preferences?: PreferenceRepository;
      readonly push?: Pick<PushStore, 'pushSubscriptions' | 'notificationSettings'>;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute({ userId }: { readonly userId: UserId }): Promise<ErasedUserData> {
    const erased = await this.deps.userData.eraseAll(userId);
    // What changed is each rated meal's histogram and its dish's, as after a rating: readers apply the figures, and
    // no live stream or cached menu that shows none of those meals is read again.
    const announce = this.deps.announce ?? nobodyListens;
    for (const { mealId, histogram, dish } of erased.meals) announce({ kind: 'rating', mealId, histogram, dish });
    // After the markings and ratings: a failure here leaves preferences a repeated erasure removes (it is idempotent).
    const preferences = await this.deps.preferences?.eraseAll(userId);
    const pushSubscriptions = await this.deps.push?.pushSubscriptions.eraseAll(userId);
    const notificationSettings = await this.deps.push?.notificationSettings.erase(userId);
    return {
      ...erased,
      ...(preferences === undefined ? {} : { preferences: preferences.filters, aversions: preferences.aversions }),
      // Said when there was any: the answer to someone who never used push reads as before push existed.
      ...(pushSubscriptions === undefined || (pushSubscriptions === 0 && notificationSettings !== true)
        ? {}
        : { pushSubscriptions, notificationSettings: notificationSettings ? 1 : 0 }),
    };
  }
}
