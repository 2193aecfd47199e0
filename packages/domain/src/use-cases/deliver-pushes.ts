import type {
  ClaimedPush,
  PushOutbox,
  PushSender,
  PushSendOutcome,
  PushSubscriptionRepository,
} from '../push/push-ports.js';
import type { RetrySettings } from '../webhook/retry-schedule.js';
import { endpointOrigin } from '../push/push-subscription.js';

export interface PushDeliverySettings extends RetrySettings {
  /** Attempts under way at once in one pass of one instance. */
  readonly concurrency: number;
  /** Attempts under way at once to one push service (an endpoint's origin): a slow one holds no more than these. */
  readonly perService: number;
  /** How long a claimed entry is this instance's: longer than one attempt takes. */
  readonly leaseMs: number;
  /** Entries claimed at a time. */
  readonly batch: number;
  /** Attempts per pass; a pass that reaches it asks to run again at once. */
  readonly maxAttempts: number;
}

export const defaultPushDeliverySettings: Omit<PushDeliverySettings, keyof RetrySettings> = {
  concurrency: 64,
  perService: 32,
  leaseMs: 2 * 60_000,
  batch: 256,
  maxAttempts: 20_000,
};

/** No wait between two attempts of one notification is longer: it is about today. */
export const pushRetryCapMs = 30 * 60_000;

export type PushAttemptOutcome = 'delivered' | 'gone' | 'failed' | 'retry' | 'expired';

export interface PushPass {
  readonly attempts: number;
  readonly outcomes: Readonly<Record<PushAttemptOutcome, number>>;
  /** Run again now: the pass stopped at a bound. */
  readonly more: boolean;
}

/**
 * One pass of the push worker: claims the due notifications, sends each (a few at a time, a bounded number to each
 * push service, so that a slow one holds back no other's), and settles it: a 2xx delivered; 404 and 410 remove the
 * subscription; 429 (its Retry-After honoured), 5xx and no answer retried with backoff until the message expires;
 * other 4xx failed for good and recorded. `onOutcome` counts them (the metrics).
 */
export class DeliverPushes {
  constructor(
    private readonly deps: {
      readonly outbox: PushOutbox;
      readonly sender: PushSender;
      readonly pushSubscriptions: PushSubscriptionRepository;
      readonly clock: { now(): Date };
      readonly settings: PushDeliverySettings;
      readonly onOutcome?: (outcome: PushAttemptOutcome) => void;
    },
  ) {}

  async execute(stop?: { readonly aborted: boolean }): Promise<PushPass> {
    const { settings } = this.deps;
    const outcomes: Record<PushAttemptOutcome, number> = { delivered: 0, gone: 0, failed: 0, retry: 0, expired: 0 };
    let attempts = 0;
    while (attempts < settings.maxAttempts && stop?.aborted !== true) {
      const claimed = await this.deps.outbox.claim(
        this.deps.clock.now(),
        Math.min(settings.batch, settings.maxAttempts - attempts),
        settings.leaseMs,
      );
      if (claimed.length === 0) return { attempts, outcomes, more: false };
      attempts += claimed.length;
      await this.sendAll(claimed, outcomes);
    }
    return { attempts, outcomes, more: true };
  }

  /** Every claimed entry sent, at most `concurrency` at once and `perService` to one push service. */
  private async sendAll(claimed: readonly ClaimedPush[], outcomes: Record<PushAttemptOutcome, number>): Promise<void> {
    const { settings } = this.deps;
    const queues = new Map<string, ClaimedPush[]>();
    for (const entry of claimed) {
      const origin = endpointOrigin(entry.subscription.endpoint);
      queues.set(origin, [...(queues.get(origin) ?? []), entry]);
    }
    const busy = new Map<string, number>();
    let running = 0;
    await new Promise<void>((resolve, reject) => {
      const next = () => {
        if (running === 0 && [...queues.values()].every((queue) => queue.length === 0)) return resolve();
        for (const [origin, queue] of queues) {
          while (queue.length > 0 && running < settings.concurrency && (busy.get(origin) ?? 0) < settings.perService) {
            const entry = queue.shift()!;
            running += 1;
            busy.set(origin, (busy.get(origin) ?? 0) + 1);
            this.attempt(entry)
              .then((outcome) => {
                outcomes[outcome] += 1;
                this.deps.onOutcome?.(outcome);
              })
              .then(() => {
                running -= 1;
                busy.set(origin, busy.get(origin)! - 1);
                next();
              }, reject);
          }
        }
      };
      next();
    });
  }

  private async attempt(entry: ClaimedPush): Promise<PushAttemptOutcome> {
    const now = this.deps.clock.now();
    const ttlSeconds = Math.floor((entry.expiresAt.getTime() - now.getTime()) / 1000);
    if (ttlSeconds <= 0) {
      await this.deps.outbox.settle(
        entry.id,
        { kind: 'expired', status: null, error: 'expired before an attempt' },
        now,
      );
      return 'expired';
    }
    let sent: PushSendOutcome;
    try {
      sent = await this.deps.sender.send(entry.subscription, {
        payload: entry.payload,
        ttlSeconds,
        topic: entry.topic,
      });
    } catch (error) {
      // A bug in the sender (expected failures are outcomes): counted as no answer, retried.
      sent = { status: null, error: error instanceof Error ? error.message : String(error) };
    }
    const at = this.deps.clock.now();
    const { status } = sent;
    if (status !== null && status >= 200 && status < 300) {
      await this.deps.outbox.settle(entry.id, { kind: 'delivered', status }, at);
      return 'delivered';
    }
    if (status === 404 || status === 410) {
      await this.deps.pushSubscriptions.removeGone(entry.subscription.id);
      return 'gone';
    }
    const error = sent.error ?? `the push service answered ${status}`;
    if (status !== null && status !== 429 && status < 500) {
      await this.deps.outbox.settle(entry.id, { kind: 'failed', status, error }, at);
      return 'failed';
    }
    const wait = Math.max(
      sent.retryAfterMs ?? 0,
      Math.min(
        pushRetryCapMs,
        this.deps.settings.baseMs * 2 ** Math.min(entry.attempts, 20) * (0.5 + this.deps.settings.random()),
      ),
    );
    const retryAt = new Date(at.getTime() + wait);
    if (retryAt >= entry.expiresAt) {
      await this.deps.outbox.settle(entry.id, { kind: 'expired', status, error }, at);
      return 'expired';
    }
    await this.deps.outbox.retry(entry.id, retryAt, status, error);
    return 'retry';
  }
}
