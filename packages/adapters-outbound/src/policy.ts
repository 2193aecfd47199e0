// The entry point `@canteen-meals/adapters-outbound/policy`: what a service needs while it starts (the address rule a
// webhook URL is checked against, a new webhook secret, the default delivery timeout), without the HTTP clients, the
// decompressors and the signing library, which only a feed fetch or a webhook delivery loads (issue 30: start time).
export { nonPublicRangeOf, type AddressPolicy } from './address-policy.js';
export { defaultWebhookTimeoutMs, newWebhookSecret } from './webhook-secret.js';
