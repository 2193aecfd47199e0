import type { RecordedEvent } from './webhook-event.js';
import type { Webhook } from './webhook.js';

/** What one attempt to send an event came to: a 2xx answer, or why not (never the receiver's body). */
export type SendOutcome =
  | { readonly delivered: true; readonly status: number }
  /**
   * `status` null: no answer came (timeout, refused address, connection error). `timedOut`: the receiver took the
   * whole timeout, holding an attempt that long; the worker backs its endpoint off.
   */
  | { readonly delivered: false; readonly status: number | null; readonly error: string; readonly timedOut?: boolean };

/**
 * Sends one event to one endpoint, signed with its secret (an adapter: the network, the wire format, the signature).
 * Expected failures are outcomes, not exceptions; the same event always goes out with the same id.
 */
export interface WebhookSender {
  send(webhook: Webhook, event: RecordedEvent): Promise<SendOutcome>;
}

/**
 * What is wrong with a webhook URL beyond its shape (undefined: nothing): an adapter that knows the outbound address
 * rule refuses, on saving, a URL it would refuse on sending anyway (an IP literal of a private network).
 */
export type WebhookUrlCheck = (url: string) => string | undefined;

/** A new signing secret, `whsec_` and the base64 of random bytes: randomness is an adapter's, not the domain's. */
export type NewWebhookSecret = () => string;
