import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { LocalTime } from '../menu/local-time.js';
import type { PreferenceRepository } from '../preference/preference-repository.js';
import type { PushSender, PushStore } from '../push/push-ports.js';
import type { Clock } from '../shared/clock.js';
import {
  DeliverPushes,
  defaultPushDeliverySettings,
  type PushAttemptOutcome,
  type PushDeliverySettings,
} from './deliver-pushes.js';
import { NotifySoldOut } from './notify-sold-out.js';
import { RunPushDigests } from './run-push-digests.js';
import { GetNotificationSettings } from './get-notification-settings.js';
import { ListPushSubscriptions } from './list-push-subscriptions.js';
import { RemovePushSubscription } from './remove-push-subscription.js';
import { SaveNotificationSettings } from './save-notification-settings.js';
import { SavePushSubscription } from './save-push-subscription.js';
import { SendTestPush } from './send-test-push.js';

export interface PushUseCaseDeps {
  readonly store: PushStore;
  readonly canteens: CanteenRepository;
  readonly preferences: PreferenceRepository;
  readonly sender: PushSender;
  readonly clock: Clock;
  /** The outbound address rule for endpoints (undefined: allowed). */
  readonly checkEndpoint: (url: string) => string | undefined;
  readonly digestTime: LocalTime;
  readonly delivery?: Partial<PushDeliverySettings>;
  readonly onOutcome?: (outcome: PushAttemptOutcome) => void;
}

/** Web Push's use cases over one store: subscriptions, settings, the test, the digest, sold out, delivery. */
export function createPushUseCases(deps: PushUseCaseDeps) {
  const { store } = deps;
  const notices = {
    canteens: deps.canteens,
    audience: store.pushAudience,
    preferences: deps.preferences,
    notificationSettings: store.notificationSettings,
    pushSubscriptions: store.pushSubscriptions,
    outbox: store.pushOutbox,
  };
  return {
    savePushSubscription: new SavePushSubscription({
      pushSubscriptions: store.pushSubscriptions,
      clock: deps.clock,
      checkEndpoint: deps.checkEndpoint,
    }),
    listPushSubscriptions: new ListPushSubscriptions(store),
    removePushSubscription: new RemovePushSubscription(store),
    getNotificationSettings: new GetNotificationSettings(store),
    saveNotificationSettings: new SaveNotificationSettings(store),
    sendTestPush: new SendTestPush({ ...store, sender: deps.sender }),
    runPushDigests: new RunPushDigests({ ...notices, digestTime: deps.digestTime }),
    notifySoldOut: new NotifySoldOut(notices),
    deliverPushes: new DeliverPushes({
      outbox: store.pushOutbox,
      sender: deps.sender,
      pushSubscriptions: store.pushSubscriptions,
      clock: deps.clock,
      settings: { ...defaultPushDeliverySettings, baseMs: 5_000, random: Math.random, ...deps.delivery },
      ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
    }),
  };
}

export type PushUseCaseSet = ReturnType<typeof createPushUseCases>;
