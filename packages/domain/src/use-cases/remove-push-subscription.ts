import type { UserId } from '../shared/user-id.js';
import type { PushSubscriptionRepository } from '../push/push-ports.js';

/** Removes the person's own subscription with that endpoint; another person's stays (idempotent). */
export class RemovePushSubscription {
  constructor(private readonly deps: { readonly pushSubscriptions: PushSubscriptionRepository }) {}
  execute({ userId, endpoint }: { readonly userId: UserId; readonly endpoint: string }): Promise<boolean> {
    return this.deps.pushSubscriptions.remove(userId, endpoint);
  }
}
