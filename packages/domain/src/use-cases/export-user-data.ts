import type { PersonPreferences, PreferenceRepository } from '../preference/preference-repository.js';
import type { Clock } from '../shared/clock.js';
import { defaultNotificationSettings, type NotificationSettings } from '../push/notification-settings.js';
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
    const push = await this.pushOf(userId);
    return {
      userId,
      exportedAt,
      markings: data.markings,
      ratings: data.ratings,
      ...(preferences === undefined ? {} : { preferences }),
      ...(push === undefined ? {} : { push }),
    };
  }

  /**
   * The person's push subscriptions and settings, when the service holds any: subscriptions, or settings other than
   * the defaults (which say nothing more than none). Absent otherwise, so that an export of someone who never used
   * push reads as before push existed.
   */
  private async pushOf(userId: UserId): Promise<UserDataExport['push']> {
    if (this.deps.push === undefined) return undefined;
    const subscriptions = await this.deps.push.pushSubscriptions.subscriptionsOf(userId);
    const settings = await this.deps.push.notificationSettings.settingsOf(userId);
    const defaults = defaultNotificationSettings;
    const chosen =
      settings.favouritesToday !== defaults.favouritesToday ||
      settings.soldOut !== defaults.soldOut ||
      settings.language !== defaults.language;
    return subscriptions.length === 0 && !chosen ? undefined : { subscriptions, settings };
  }
}
