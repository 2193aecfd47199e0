import type {
  GetNotificationSettings,
  ListPushSubscriptions,
  RemovePushSubscription,
  SaveNotificationSettings,
  SavePushSubscription,
  SendTestPush,
} from '@canteen-meals/domain';

/** The use cases of Web Push, present when the server has its VAPID keys (served by @canteen-meals/adapters-http-push). */
export interface PushUseCases {
  readonly savePushSubscription: SavePushSubscription;
  readonly listPushSubscriptions: ListPushSubscriptions;
  readonly removePushSubscription: RemovePushSubscription;
  readonly sendTestPush: SendTestPush;
  readonly getNotificationSettings: GetNotificationSettings;
  readonly saveNotificationSettings: SaveNotificationSettings;
}

/** Web Push on this server: the VAPID public key and the use cases; undefined: off (no keys configured). */
export type PushOptions = (PushUseCases & { readonly publicKey: string }) | undefined;
