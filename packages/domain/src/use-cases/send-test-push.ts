import type { UserId } from '../shared/user-id.js';
import type { NotificationSettingsRepository } from '../push/notification-settings.js';
import { payloadJson, testPayload, topicOf } from '../push/push-messages.js';
import type { PushSender, PushSubscriptionRepository } from '../push/push-ports.js';
import type { PushSubscription } from '../push/push-subscription.js';

/** How the test notification fared at one subscription. */
export interface TestPushOutcome {
  readonly subscription: PushSubscription;
  readonly outcome: 'delivered' | 'gone' | 'failed';
  /** The push service's status; null: no answer. */
  readonly status: number | null;
  readonly error: string | null;
}

/** A test notification to every subscription of the person, now (not through the outbox): each outcome answered. */
export class SendTestPush {
  constructor(
    private readonly deps: {
      readonly pushSubscriptions: PushSubscriptionRepository;
      readonly notificationSettings: NotificationSettingsRepository;
      readonly sender: PushSender;
    },
  ) {}

  async execute({ userId }: { readonly userId: UserId }): Promise<readonly TestPushOutcome[]> {
    const [subscriptions, settings] = await Promise.all([
      this.deps.pushSubscriptions.subscriptionsOf(userId),
      this.deps.notificationSettings.settingsOf(userId),
    ]);
    const payload = testPayload(settings.language);
    const message = { payload: payloadJson(payload), ttlSeconds: 60 * 60, topic: topicOf(payload.tag) };
    return Promise.all(
      subscriptions.map(async (subscription): Promise<TestPushOutcome> => {
        const sent = await this.deps.sender.send(subscription, message);
        const status = sent.status;
        if (status !== null && status >= 200 && status < 300)
          return { subscription, outcome: 'delivered', status, error: null };
        if (status === 404 || status === 410) {
          await this.deps.pushSubscriptions.removeGone(subscription.id);
          return { subscription, outcome: 'gone', status, error: null };
        }
        return { subscription, outcome: 'failed', status, error: sent.error ?? `the push service answered ${status}` };
      }),
    );
  }
}
