import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { UserId } from '../shared/user-id.js';
import type { NotificationSettings, NotificationSettingsRepository } from '../push/notification-settings.js';
import { payloadJson, testPayload, topicOf } from '../push/push-messages.js';
import type { PushSender, PushSubscriptionRepository } from '../push/push-ports.js';
import {
  maxPushSubscriptionsPerPerson,
  pushSubscriptionProblem,
  type NewPushSubscription,
  type PushSubscription,
} from '../push/push-subscription.js';

export const savePushSubscriptionRefusals = ['invalid_push_subscription'] as const;

/** Saves the browser's subscription for the person: new (created) or known by its endpoint (moved to them). */
export class SavePushSubscription {
  constructor(
    private readonly deps: {
      readonly pushSubscriptions: PushSubscriptionRepository;
      readonly clock: Clock;
      /** The outbound address rule for endpoints (undefined: allowed). */
      readonly checkEndpoint: (url: string) => string | undefined;
    },
  ) {}

  async execute(
    subscription: NewPushSubscription,
  ): Promise<
    Result<
      { readonly subscription: PushSubscription; readonly created: boolean },
      (typeof savePushSubscriptionRefusals)[number]
    >
  > {
    const problem = pushSubscriptionProblem(subscription, this.deps.checkEndpoint);
    if (problem !== undefined) return refuse('invalid_push_subscription', problem.message);
    return accept(
      await this.deps.pushSubscriptions.save(subscription, this.deps.clock.now(), maxPushSubscriptionsPerPerson),
    );
  }
}

export class ListPushSubscriptions {
  constructor(private readonly deps: { readonly pushSubscriptions: PushSubscriptionRepository }) {}
  execute({ userId }: { readonly userId: UserId }): Promise<readonly PushSubscription[]> {
    return this.deps.pushSubscriptions.subscriptionsOf(userId);
  }
}

/** Removes the person's own subscription with that endpoint; another person's stays (idempotent). */
export class RemovePushSubscription {
  constructor(private readonly deps: { readonly pushSubscriptions: PushSubscriptionRepository }) {}
  execute({ userId, endpoint }: { readonly userId: UserId; readonly endpoint: string }): Promise<boolean> {
    return this.deps.pushSubscriptions.remove(userId, endpoint);
  }
}

export class GetNotificationSettings {
  constructor(private readonly deps: { readonly notificationSettings: NotificationSettingsRepository }) {}
  execute({ userId }: { readonly userId: UserId }): Promise<NotificationSettings> {
    return this.deps.notificationSettings.settingsOf(userId);
  }
}

export class SaveNotificationSettings {
  constructor(private readonly deps: { readonly notificationSettings: NotificationSettingsRepository }) {}
  async execute({
    userId,
    settings,
  }: {
    readonly userId: UserId;
    readonly settings: NotificationSettings;
  }): Promise<NotificationSettings> {
    await this.deps.notificationSettings.save(userId, settings);
    return settings;
  }
}

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
