import type { PersonPreferences, PreferenceRepository } from '../preference/preference-repository.js';
import type { Clock } from '../shared/clock.js';
import type { NotificationSettings } from '../push/notification-settings.js';
import type { PushStore } from '../push/push-ports.js';
import type { PushSubscription } from '../push/push-subscription.js';
import type { UserId } from '../shared/user-id.js';
import type { UserData, UserDataRepository } from '../user-data/user-data-repository.js';

export interface UserDataExport extends UserData {
  readonly userId: UserId;
  readonly exportedAt: Date;
  /** The label filter and avoided dishes the person keeps (absent: an export of a service without them). */
  readonly preferences?: PersonPreferences;
  /** Their push subscriptions and notification settings (absent: a store without push). */
  readonly push?: { readonly subscriptions: readonly PushSubscription[]; readonly settings: NotificationSettings };
}

/** GDPR art. 15: everything the service holds for the user, each marking and rating with its meal. */
export class ExportUserData {
  constructor(
    private readonly deps: {
      readonly userData: UserDataRepository;
      readonly preferences?: PreferenceRepository;
      readonly push?: Pick<PushStore, 'pushSubscriptions' | 'notificationSettings'>;
      readonly clock: Clock;
    },
  ) {}

  async execute({ userId }: { readonly userId: UserId }): Promise<UserDataExport> {
    const exportedAt = this.deps.clock.now();
    const data = await this.deps.userData.exportAll(userId);
    const preferences = await this.deps.preferences?.preferencesOf(userId);
    const push =
      this.deps.push === undefined
        ? undefined
        : { subscriptions: await this.deps.push.pushSubscriptions.subscriptionsOf(userId), settings: await this.deps.push.notificationSettings.settingsOf(userId) };
    return {
      userId,
      exportedAt,
      markings: data.markings,
      ratings: data.ratings,
      ...(preferences === undefined ? {} : { preferences }),
      ...(push === undefined ? {} : { push }),
    };
  }
}
