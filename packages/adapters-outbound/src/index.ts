export { FeedFetchError, type FeedFetchErrorKind } from './feed-fetch-error.js';
export { fetchFeed, type FeedFetchResult } from './fetch-feed.js';
export type { FetchAttemptReport, FetchFeedOptions } from './fetch-feed-options.js';
export type { HostLookup } from './guarded-lookup.js';
export {
  sendWebhook,
  type SendWebhookOptions,
  type WebhookMessage,
  type WebhookSendResult,
} from './send-webhook.js';
export { signWebhook } from './webhook-signature.js';
export {
  type ClosablePushSender,
  createPushSender,
  generateVapidKeys,
  type PushMessage,
  type PushSenderOptions,
  type PushSendResult,
  type PushTarget,
  type VapidIdentity,
  type WebPushSender,
} from './send-push.js';
// Also everything of the start-time entry point (./policy).
export * from './policy.js';
