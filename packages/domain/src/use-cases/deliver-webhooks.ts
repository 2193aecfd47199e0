import type { Clock } from '../shared/clock.js';
import { disablesEndpoint, nextAttemptAt, type RetrySettings } from '../webhook/retry-schedule.js';
import type { SendOutcome, WebhookSender } from '../webhook/webhook-delivery-ports.js';
import type { AttemptOutcome, ClaimedDelivery, WebhookOutbox } from '../webhook/webhook-ports.js';

export interface DeliverySettings extends RetrySettings {
  /** Attempts under way at once in one pass of one instance. */
  readonly concurrency: number;
  /**
   * How long a claimed delivery is this instance's: longer than one attempt takes (the sender's timeout), so that
   * nobody else sends it meanwhile; a crash lets it go after this.
   */
  readonly leaseMs: number;
  /** Recorded events one fan-out takes, and fan-outs per pass: bounds, so that a pass ends. */
  readonly fanOutBatch: number;
  readonly maxFanOuts: number;
  /** Attempts per pass; a pass that reaches it asks to run again at once. */
  readonly maxAttempts: number;
  /** Told when a sender throws (a bug: expected failures are outcomes); the attempt counts as failed. */
  readonly onSenderError: (error: unknown) => void;
}

export const defaultDeliverySettings: Omit<DeliverySettings, keyof RetrySettings> = {
  concurrency: 8,
  leaseMs: 2 * 60_000,
  fanOutBatch: 100,
  maxFanOuts: 20,
  maxAttempts: 400,
  onSenderError: () => {},
};

/** Tells a pass to take nothing more (an AbortSignal will do; the domain knows no platform's). */
export interface StopSignal {
  readonly aborted: boolean;
}

export interface DeliveryPass {
  /** Recorded events turned into deliveries. */
  readonly fannedOut: number;
  readonly delivered: number;
  readonly failed: number;
  /** When to run the next pass: now when this one stopped at a bound, null when nothing waits. */
  readonly nextRunAt: Date | null;
}

/**
 * One pass of the delivery worker: turn the recorded events into deliveries, then send every due delivery this
 * instance can claim, a few at a time, and record each outcome with the retry schedule. Passes of several instances
 * may run at once: the outbox hands each event and each claimed delivery to one of them.
 */
export class DeliverWebhooks {
  constructor(
    private readonly deps: {
      readonly outbox: WebhookOutbox;
      readonly sender: WebhookSender;
      readonly clock: Clock;
      readonly settings: DeliverySettings;
    },
  ) {}

  /** `signal`: once aborted (a shutdown), the pass takes nothing more and ends when the attempts under way have. */
  async execute(signal?: StopSignal): Promise<DeliveryPass> {
    const fanOut = await this.fanOut(signal);
    const sent = await this.sendDue(signal);
    const atBound = fanOut.atBound || sent.atBound;
    const nextRunAt = atBound ? this.deps.clock.now() : await this.deps.outbox.nextDueAt();
    return { fannedOut: fanOut.events, delivered: sent.delivered, failed: sent.failed, nextRunAt };
  }

  private async fanOut(signal: StopSignal | undefined): Promise<{ readonly events: number; readonly atBound: boolean }> {
    const { outbox, clock, settings } = this.deps;
    let events = 0;
    for (let round = 0; round < settings.maxFanOuts && signal?.aborted !== true; round += 1) {
      const taken = await outbox.fanOut(clock.now(), settings.fanOutBatch);
      events += taken;
      if (taken < settings.fanOutBatch) return { events, atBound: false };
    }
    return { events, atBound: true };
  }

  /** Keeps up to `concurrency` attempts under way, claiming more as each ends, until none is due or the bound is hit. */
  private async sendDue(signal: StopSignal | undefined): Promise<{ readonly delivered: number; readonly failed: number; readonly atBound: boolean }> {
    const { outbox, clock, settings } = this.deps;
    const underWay = new Set<Promise<void>>();
    let claimed = 0;
    let delivered = 0;
    let drained = false;
    // A record that fails (the database) ends the pass once the attempts under way are over, none left unawaited.
    let failure = null as { readonly error: unknown } | null;
    const attempt = async (claim: ClaimedDelivery) => {
      try {
        if (await this.attempt(claim)) delivered += 1;
      } catch (error) {
        failure ??= { error };
      }
    };
    for (;;) {
      const room = Math.min(settings.concurrency - underWay.size, settings.maxAttempts - claimed);
      if (!drained && failure === null && signal?.aborted !== true && room > 0) {
        const batch = await outbox.claimDue(clock.now(), room, settings.leaseMs).catch((error: unknown) => {
          failure ??= { error };
          return [];
        });
        claimed += batch.length;
        if (batch.length < room) drained = true;
        for (const claim of batch) {
          const running: Promise<void> = attempt(claim).finally(() => underWay.delete(running));
          underWay.add(running);
        }
        continue;
      }
      if (underWay.size === 0) break;
      await Promise.race(underWay);
    }
    if (failure !== null) throw failure.error;
    return { delivered, failed: claimed - delivered, atBound: !drained };
  }

  /** Sends one claimed delivery and records what came of it; answers whether it was delivered. */
  private async attempt({ webhook, delivery }: ClaimedDelivery): Promise<boolean> {
    const { outbox, sender, clock, settings } = this.deps;
    const sent = await sender.send(webhook, delivery.event).catch((error: unknown): SendOutcome => {
      settings.onSenderError(error);
      return { delivered: false, status: null, error: 'the delivery failed inside the service' };
    });
    const at = clock.now();
    if (sent.delivered) {
      await outbox.record(webhook.id, delivery.event.id, { kind: 'delivered', status: sent.status }, at, false);
      return true;
    }
    // The first attempt is due when the delivery is created: the 3 days of retries count from then.
    const retryAt = nextAttemptAt({ firstAttemptAt: delivery.createdAt, failedAttempts: delivery.attempts + 1, at }, settings);
    const outcome: AttemptOutcome = { kind: 'failed', status: sent.status, error: sent.error, retryAt };
    await outbox.record(webhook.id, delivery.event.id, outcome, at, disablesEndpoint(webhook.failingSince, at));
    return false;
  }
}
