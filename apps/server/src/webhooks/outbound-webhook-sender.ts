import { nonPublicHostOf } from '@canteen-meals/adapters-outbound/policy';
import type { Clock, WebhookSender, WebhookUrlCheck } from '@canteen-meals/domain/ports';
import { webhookPayloadOf } from '@canteen-meals/http-contract';

export interface OutboundWebhookOptions {
  readonly allowPrivateNetworks: boolean;
  readonly timeoutMs: number;
  /** The instant of each attempt: its `webhook-timestamp`. */
  readonly clock: Clock;
}

/**
 * Deliveries through adapters-outbound: the events in their wire form, signed, under the same address rule as feeds.
 */
export function outboundWebhookSender(options: OutboundWebhookOptions): WebhookSender {
  return {
    send: async (webhook, event) =>
      (await loadOutbound()).sendWebhook(
        { url: webhook.url, id: event.id, body: JSON.stringify(webhookPayloadOf(event)), secret: webhook.secret },
        {
          allowPrivateNetworks: options.allowPrivateNetworks,
          timeoutMs: options.timeoutMs,
          now: () => options.clock.now(),
        },
      ),
  };
}

/**
 * The HTTP clients and the signing library are loaded by the first delivery, not by every start; a module
 * is loaded once, so this costs one lookup afterwards.
 */
const loadOutbound = () => import('@canteen-meals/adapters-outbound');

/**
 * The part of the outbound address rule a PUT can check without a lookup: a host that is an IP literal of a
 * non-public range, or `localhost`. A name is checked where it counts, on the address each delivery connects to.
 */
export function webhookUrlCheck({ allowPrivateNetworks }: { readonly allowPrivateNetworks: boolean }): WebhookUrlCheck {
  return (url) => {
    if (allowPrivateNetworks) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined; // the shape rule names what is wrong with it
    }
    // The same host rule as a push endpoint's (adapters-outbound/policy).
    const range = nonPublicHostOf(parsed);
    return range === null
      ? undefined
      : `must reach a public address, not a ${range} one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)`;
  };
}
