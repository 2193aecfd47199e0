import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { PreferenceRepository } from '../preference/preference-repository.js';
import type { UserId } from '../shared/user-id.js';
import type { NotificationSettingsRepository } from '../push/notification-settings.js';
import { topicOf } from '../push/push-messages.js';
import type { PushAudience, PushEntry, PushOutbox, PushSubscriptionRepository } from '../push/push-ports.js';

export interface NoticeDeps {
  readonly canteens: CanteenRepository;
  readonly audience: PushAudience;
  readonly preferences: PreferenceRepository;
  readonly notificationSettings: NotificationSettingsRepository;
  readonly pushSubscriptions: PushSubscriptionRepository;
  readonly outbox: PushOutbox;
}

/** One entry per subscription of each person, the payload in their language, until the end of the canteen's day. */
export async function entriesFor(
  deps: NoticeDeps,
  payloads: ReadonlyMap<UserId, (language: 'en' | 'de') => string>,
  tag: string,
  at: Date,
  until: Date,
): Promise<PushEntry[]> {
  const users = [...payloads.keys()];
  const subscriptions = await deps.pushSubscriptions.subscriptionsOfUsers(users);
  const settings = await deps.notificationSettings.settingsOfUsers(users);
  return subscriptions.map((subscription) => ({
    subscriptionId: subscription.id,
    payload: payloads.get(subscription.userId)!(settings.get(subscription.userId)?.language ?? 'en'),
    topic: topicOf(tag),
    dueAt: at,
    expiresAt: until,
  }));
}
