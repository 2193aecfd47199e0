// What the API's feed and delivery records say, in the console's words: pure, so each wording has a unit test.
import type { Delivery, FeedSummary } from '@canteen-meals/client';
import type { Language } from '../shared/language.js';
import type { ConsoleTexts } from './texts.js';

/** An instant as the page's language writes it, on the browser's clocks (or `timeZone`'s, for tests). */
export function instantFormat(language: Language, timeZone?: string): (instant: string) => string {
  const format = new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(timeZone === undefined ? {} : { timeZone }),
  });
  return (instant) => format.format(new Date(instant));
}

export interface FeedStatus {
  readonly lastSuccess: string;
  readonly lastError: string;
  readonly nextRun: string;
  readonly outcome: string;
}

/** Why a fetch failed, in words: the HTTP status when there was an answer, and the service's reason. */
export function failureWords(summary: Pick<FeedSummary, 'http_status' | 'last_error'>, t: ConsoleTexts): string {
  const reason = summary.last_error ?? t.unknownReason;
  return summary.http_status === null ? t.failedWithoutAnswer(reason) : t.failedWithStatus(summary.http_status, reason);
}

/** The outcome of the last attempt (or of "fetch now"), in words. */
export function outcomeWords(summary: FeedSummary, t: ConsoleTexts): string {
  switch (summary.outcome) {
    case 'imported':
      return summary.counts === null
        ? t.imported({ added: 0, changed: 0, unchanged: 0, withdrawn: 0 })
        : t.imported(summary.counts);
    case 'not_modified':
      return t.notModified;
    case 'failed':
      return t.fetchFailed(failureWords(summary, t));
    case null:
      return t.neverFetched;
  }
}

/** A feed's card: last success, last error, next run and the last outcome. */
export function feedStatusOf(summary: FeedSummary, t: ConsoleTexts, when: (instant: string) => string): FeedStatus {
  return {
    lastSuccess: summary.last_success_at === null ? t.never : when(summary.last_success_at),
    lastError: summary.last_error === null ? t.noError : failureWords(summary, t),
    nextRun: summary.next_run_at === null ? t.notScheduled : when(summary.next_run_at),
    outcome: outcomeWords(summary, t),
  };
}

/** One line of a webhook's delivery log. */
export function deliveryWords(delivery: Delivery, t: ConsoleTexts, when: (instant: string) => string): string {
  const state = t.deliveryState[delivery.state];
  const attempts = t.attempts(delivery.attempts);
  const last =
    delivery.last_error !== null
      ? delivery.last_status === null
        ? t.failedWithoutAnswer(delivery.last_error)
        : t.failedWithStatus(delivery.last_status, delivery.last_error)
      : delivery.last_status === null
        ? ''
        : `HTTP ${delivery.last_status}`;
  const next =
    delivery.state === 'pending' && delivery.next_attempt_at !== null
      ? t.nextAttempt(when(delivery.next_attempt_at))
      : '';
  return [`${when(delivery.created_at)} · ${delivery.type}`, state, attempts, last, next]
    .filter((part) => part !== '')
    .join(' · ');
}
