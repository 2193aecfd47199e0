// The entry point `@canteen-meals/adapters-outbound/policy`: what a service needs while it starts (the address rule a
// webhook URL is checked against, a new webhook secret, the default delivery timeout, the rule a push subscription's
// endpoint is saved under), without the HTTP clients, the decompressors, the signing library and web-push, which only
// a feed fetch, a webhook delivery or a push loads (start time).
export { nonPublicRangeOf, type AddressPolicy } from './address-policy.js';
export { defaultWebhookTimeoutMs, newWebhookSecret } from './webhook-secret.js';
export { defaultPushTimeoutMs, nonPublicHostOf, pushEndpointProblem } from './push-endpoint.js';
