export { nonPublicRangeOf, type AddressPolicy } from './address-policy.js';
export { FeedFetchError, type FeedFetchErrorKind } from './feed-fetch-error.js';
export { fetchFeed, type FeedFetchResult } from './fetch-feed.js';
export type { FetchAttemptReport, FetchFeedOptions } from './fetch-feed-options.js';
export type { HostLookup } from './guarded-lookup.js';
export {
  defaultWebhookTimeoutMs,
  sendWebhook,
  type SendWebhookOptions,
  type WebhookMessage,
  type WebhookSendResult,
} from './send-webhook.js';
export { newWebhookSecret, signWebhook } from './webhook-signature.js';
