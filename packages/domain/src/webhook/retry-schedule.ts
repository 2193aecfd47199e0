/** The default wait before the first retry (WEBHOOK_RETRY_BASE_MS). */
export const defaultWebhookRetryBaseMs = 30_000;
/** No wait between two attempts is longer. */
export const webhookRetryCapMs = 6 * 60 * 60 * 1000;
/** A delivery is given up when its next attempt would fall later than this after its first one. */
export const webhookRetryPeriodMs = 3 * 24 * 60 * 60 * 1000;
/** An endpoint whose every attempt failed for this long is disabled (until an admin's PUT). */
export const webhookDisableAfterMs = 3 * 24 * 60 * 60 * 1000;

export interface RetrySettings {
  /** The nominal wait after the first failed attempt; each further failure doubles it, up to `webhookRetryCapMs`. */
  readonly baseMs: number;
  /** A number in [0, 1): the jitter. Injected, so that tests know every wait exactly. */
  readonly random: () => number;
}

/**
 * The wait after the `failedAttempts`-th failed attempt (1 for the first): the nominal min(base·2^(n−1), 6 h), times a
 * factor uniform in [0.5, 1.5) ("±50 %" jitter), and never above 6 h. Jitter keeps receivers that come back after an
 * outage from getting every retry at once; unlike full jitter (uniform in [0, nominal)) it never retries at once.
 */
export function retryDelayMs(failedAttempts: number, { baseMs, random }: RetrySettings): number {
  const doublings = Math.max(0, failedAttempts - 1);
  // 2^40 times any base is past the cap: the exponent stays small, and so does the arithmetic.
  const nominal = Math.min(baseMs * 2 ** Math.min(doublings, 40), webhookRetryCapMs);
  return Math.min(Math.round(nominal * (0.5 + random())), webhookRetryCapMs);
}

/**
 * When to try again after the `failedAttempts`-th failed attempt at `at`, or null to give up: the retry would fall
 * later than 3 days after the first attempt (`firstAttemptAt`, when the delivery first became due).
 */
export function nextAttemptAt(
  {
    firstAttemptAt,
    failedAttempts,
    at,
  }: { readonly firstAttemptAt: Date; readonly failedAttempts: number; readonly at: Date },
  settings: RetrySettings,
): Date | null {
  const retryAt = at.getTime() + retryDelayMs(failedAttempts, settings);
  return retryAt > firstAttemptAt.getTime() + webhookRetryPeriodMs ? null : new Date(retryAt);
}

/**
 * Whether a failure at `at` disables the endpoint: every attempt to it failed since `failingSince` (null: this is the
 * first failure since a success or a PUT, so the failing starts now), and that is 3 days or more ago.
 */
export function disablesEndpoint(failingSince: Date | null, at: Date): boolean {
  return failingSince !== null && failingSince.getTime() <= at.getTime() - webhookDisableAfterMs;
}
