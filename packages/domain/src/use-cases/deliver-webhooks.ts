import type { Clock } from '../shared/clock.js';
import { disablesEndpoint, nextAttemptAt, type RetrySettings } from '../webhook/retry-schedule.js';
import type { SendOutcome, WebhookSender } from '../webhook/webhook-delivery-ports.js';
import type { AttemptOutcome, ClaimedDelivery, WebhookOutbox } from '../webhook/webhook-ports.js';
import type { WebhookId } from '../webhook/webhook.js';

export interface DeliverySettings extends RetrySettings {
  /** Attempts under way at once in one pass of one instance. */
  readonly concurrency: number;
  /**
   * Attempts under way at once to one endpoint in one instance: a receiver that hangs holds this many of the
   * `concurrency` slots, the others keep delivering to everyone else.
   */
  readonly perEndpoint: number;
  /**
   * An endpoint whose attempt timed out gets no attempt in this instance for this long (doubled with each further
   * timeout in a row, up to `maxTimeoutBackoffMs`; an answer ends it): its deliveries wait instead of holding slots.
   */
  readonly timeoutBackoffMs: number;
  readonly maxTimeoutBackoffMs: number;
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
  perEndpoint: 2,
  timeoutBackoffMs: 30_000,
  maxTimeoutBackoffMs: 15 * 60_000,
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
  /**
   * The endpoints backed off after a timeout: until when, after how many timeouts in a row, and the number of the
   * first attempt begun after it (attempts are numbered as they begin).
   */
  private readonly backedOff = new Map<
    WebhookId,
    { readonly until: number; readonly timeouts: number; readonly fromAttempt: number }
  >();
  private attemptsBegun = 0;
  /** Set by `wake`: the pass under way fans out and claims again instead of only waiting for its attempts. */
  private woken = false;
  private wakeWaiter: (() => void) | null = null;

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
    this.woken = false;
    const fanOut = await this.fanOut(signal);
    const sent = await this.sendDue(signal);
    const atBound = fanOut.atBound || sent.atBound;
    const nextRunAt = atBound ? this.deps.clock.now() : await this.nextRunAt();
    return { fannedOut: fanOut.events + sent.fannedOut, delivered: sent.delivered, failed: sent.failed, nextRunAt };
  }

  /**
   * More may be due than when the pass under way began (a local write recorded events, a retry fell due): it fans out
   * and claims again at once, instead of after its slowest attempt (a receiver that hangs until the timeout).
   */
  wake(): void {
    this.woken = true;
    this.wakeWaiter?.();
  }

  private async fanOut(
    signal: StopSignal | undefined,
  ): Promise<{ readonly events: number; readonly atBound: boolean }> {
    const { outbox, clock, settings } = this.deps;
    let events = 0;
    for (let round = 0; round < settings.maxFanOuts && signal?.aborted !== true; round += 1) {
      const taken = await outbox.fanOut(clock.now(), settings.fanOutBatch);
      events += taken;
      if (taken < settings.fanOutBatch) return { events, atBound: false };
    }
    return { events, atBound: true };
  }

  /** The next due delivery of an endpoint not backed off, or the end of the first backoff, whichever comes first. */
  private async nextRunAt(): Promise<Date | null> {
    const now = this.deps.clock.now().getTime();
    for (const [webhookId, { until }] of this.backedOff) if (until <= now) this.backedOff.delete(webhookId);
    const due = await this.deps.outbox.nextDueAt(new Set(this.backedOff.keys()));
    const backoffEnds = Math.min(...[...this.backedOff.values()].map(({ until }) => until));
    if (due === null) return Number.isFinite(backoffEnds) ? new Date(backoffEnds) : null;
    return due.getTime() <= backoffEnds ? due : new Date(backoffEnds);
  }

  /**
   * Keeps up to `concurrency` attempts under way, claiming more as each ends, until none is due or the bound is hit.
   * No endpoint has more than `perEndpoint` of them, and a backed-off endpoint none.
   */
  private async sendDue(signal: StopSignal | undefined): Promise<{
    readonly fannedOut: number;
    readonly delivered: number;
    readonly failed: number;
    readonly atBound: boolean;
  }> {
    const { outbox, clock, settings } = this.deps;
    const underWay = new Set<Promise<void>>();
    let fannedOut = 0;
    let fanOutAtBound = false;
    let claimed = 0;
    let delivered = 0;
    let drained = false;
    const inFlight = new Map<WebhookId, number>();
    // A record that fails (the database) ends the pass once the attempts under way are over, none left unawaited.
    let failure = null as { readonly error: unknown } | null;
    const attempt = async (claim: ClaimedDelivery) => {
      const webhookId = claim.webhook.id;
      inFlight.set(webhookId, (inFlight.get(webhookId) ?? 0) + 1);
      try {
        if (await this.attempt(claim)) delivered += 1;
      } catch (error) {
        failure ??= { error };
      } finally {
        const left = inFlight.get(webhookId)! - 1;
        if (left === 0) inFlight.delete(webhookId);
        else inFlight.set(webhookId, left);
        // Its endpoint has room again: deliveries a bound held back may be claimed now.
        drained = false;
      }
    };
    for (;;) {
      if (this.woken && failure === null && signal?.aborted !== true) {
        this.woken = false;
        try {
          const more = await this.fanOut(signal);
          fannedOut += more.events;
          fanOutAtBound ||= more.atBound;
        } catch (error) {
          failure ??= { error };
        }
        drained = false;
      }
      const room = Math.min(settings.concurrency - underWay.size, settings.maxAttempts - claimed);
      if (!drained && failure === null && signal?.aborted !== true && room > 0) {
        const now = clock.now();
        const batch = await outbox
          .claimDue(now, room, settings.leaseMs, this.roomAt(now, inFlight))
          .catch((error: unknown) => {
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
      const woken = new Promise<void>((resolve) => (this.wakeWaiter = resolve));
      await Promise.race([...underWay, woken]);
      this.wakeWaiter = null;
    }
    if (failure !== null) throw failure.error;
    return { fannedOut, delivered, failed: claimed - delivered, atBound: !drained || fanOutAtBound };
  }

  /** The endpoints' attempts under way, and those backed off as full. */
  private roomAt(
    now: Date,
    inFlight: ReadonlyMap<WebhookId, number>,
  ): { readonly perEndpoint: number; readonly busy: ReadonlyMap<WebhookId, number> } {
    const { perEndpoint } = this.deps.settings;
    const busy = new Map(inFlight);
    for (const [webhookId, { until }] of this.backedOff) if (until > now.getTime()) busy.set(webhookId, perEndpoint);
    return { perEndpoint, busy };
  }

  /**
   * A timeout backs the endpoint off (longer with each one in a row); any answer, or a failure of another kind, ends
   * it. Attempts that began before the backoff (under way beside the one that set it) neither end nor lengthen it.
   */
  private noteOutcome(webhookId: WebhookId, sent: SendOutcome, attemptNumber: number, at: Date): void {
    const current = this.backedOff.get(webhookId);
    if (current !== undefined && attemptNumber < current.fromAttempt) return;
    if (sent.delivered || sent.timedOut !== true) {
      this.backedOff.delete(webhookId);
      return;
    }
    const { timeoutBackoffMs, maxTimeoutBackoffMs } = this.deps.settings;
    const timeouts = (current?.timeouts ?? 0) + 1;
    const waitMs = Math.min(maxTimeoutBackoffMs, timeoutBackoffMs * 2 ** Math.min(timeouts - 1, 30));
    this.backedOff.set(webhookId, { until: at.getTime() + waitMs, timeouts, fromAttempt: this.attemptsBegun });
  }

  /** Sends one claimed delivery and records what came of it; answers whether it was delivered. */
  private async attempt({ webhook, delivery }: ClaimedDelivery): Promise<boolean> {
    const { outbox, sender, clock, settings } = this.deps;
    const attemptNumber = this.attemptsBegun++;
    const sent = await sender.send(webhook, delivery.event).catch((error: unknown): SendOutcome => {
      settings.onSenderError(error);
      return { delivered: false, status: null, error: 'the delivery failed inside the service' };
    });
    const at = clock.now();
    this.noteOutcome(webhook.id, sent, attemptNumber, at);
    if (sent.delivered) {
      await outbox.record(webhook.id, delivery.event.id, { kind: 'delivered', status: sent.status }, at, false);
      return true;
    }
    // The first attempt is due when the delivery is created: the 3 days of retries count from then.
    const retryAt = nextAttemptAt(
      { firstAttemptAt: delivery.createdAt, failedAttempts: delivery.attempts + 1, at },
      settings,
    );
    const outcome: AttemptOutcome = { kind: 'failed', status: sent.status, error: sent.error, retryAt };
    await outbox.record(webhook.id, delivery.event.id, outcome, at, disablesEndpoint(webhook.failingSince, at));
    return false;
  }
}
