import type { UserId } from '../shared/user-id.js';
import type { PushSubscriptionRepository } from '../push/push-ports.js';
import type { PushSubscription } from '../push/push-subscription.js';

export class ListPushSubscriptions {
  constructor(private readonly deps: { readonly pushSubscriptions: PushSubscriptionRepository }) {}
  execute({ userId }: { readonly userId: UserId }): Promise<readonly PushSubscription[]> {
    return this.deps.pushSubscriptions.subscriptionsOf(userId);
  }
}
