import type { CanteenId } from '../canteen/canteen.js';

/** Every staff change the audit trail records, named `thing.what_happened` like the webhook events. */
export const auditActions = [
  'canteen.created',
  'canteen.edited',
  'canteen.archived',
  'canteen.restored',
  'feed.added',
  'feed.changed',
  'feed.removed',
  'feed.fetched',
  'menu.upserted',
  'meal.withdrawn',
  'day.closed',
  'day.opened',
  'availability.set',
  'dishes.merged',
  'webhook.created',
  'webhook.changed',
  'webhook.deleted',
] as const;

export type AuditAction = (typeof auditActions)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (auditActions as readonly string[]).includes(value);
}

/** Who makes a change and through which request: what a route hands a use case along with the change. */
export interface AuditActor {
  /** The token's subject. */
  readonly actor: string;
  /** The scopes the token held, as granted (`meals:manage@mensa-nord` for a grant of one canteen). */
  readonly actorScopes: readonly string[];
  readonly requestId: string;
}

/** A value of a summary: what JSON holds, no more (the summary is stored and answered as it is). */
export type AuditValue =
  | string
  | number
  | boolean
  | null
  | readonly AuditValue[]
  | { readonly [key: string]: AuditValue };

/**
 * What changed, never a student's personal data. Its keys are written as the API writes its fields (`meal_ids`),
 * because
 * the summary is stored and answered as it is, like a webhook event's data.
 */
export type AuditSummary = { readonly [key: string]: AuditValue };

/** One change as its use case describes it; the store gives it its id. */
export interface AuditRecord extends AuditActor {
  readonly at: Date;
  readonly action: AuditAction;
  /** The canteen changed (null: a change of no one canteen, such as a webhook's). */
  readonly canteenId: CanteenId | null;
  /** What was changed, as the API names it: a canteen id, `meal 42`, `feed full`, `webhook ops`, `2026-03-10`. */
  readonly target: string;
  readonly summary: AuditSummary;
}

/** One recorded change. */
export interface AuditEntry extends AuditRecord {
  readonly id: string;
}

/**
 * What a change asks its store to record in the change's own transaction: called there with the change's outcome, it
 * answers the records to append (none when nothing changed). Synchronous, like a decision: an embedded database holds
 * no transaction across an await.
 */
export type AuditNote<T> = (outcome: T) => readonly AuditRecord[];

/** The record of one change by `by` at `at`. */
export function auditRecordOf(
  by: AuditActor,
  at: Date,
  action: AuditAction,
  canteenId: CanteenId | null,
  target: string,
  summary: AuditSummary,
): AuditRecord {
  return {
    actor: by.actor,
    actorScopes: [...by.actorScopes],
    requestId: by.requestId,
    at,
    action,
    canteenId,
    target,
    summary,
  };
}
