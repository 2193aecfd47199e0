import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import type { PushSubscriptionRepository } from '../push/push-ports.js';
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
