import type { AvailabilityChange } from '../availability/availability.js';
import type { CanteenId, CanteenRecord, StoredCanteen } from '../canteen/canteen.js';
import type { DishId } from '../dish/dish.js';
import type { CanteenFeed } from '../feed/canteen-feed.js';
import type { MealId } from '../meal/meal.js';
import type { LocalDate } from '../menu/local-time.js';
import type { WebhookId } from '../webhook/webhook.js';
import { auditRecordOf, type AuditActor, type AuditNote, type AuditRecord } from './audit-entry.js';

// What each staff change records: the notes its use case hands the store, which calls them in the change's
// transaction with what the change came to. Summaries name ids, statuses and fields, never a student's data.

/** A serving's availability set: its status before and after (nothing when it was already so). */
export function availabilityAudit(by: AuditActor): AuditNote<AvailabilityChange> {
  return (change) =>
    change.previous.status === change.next.status
      ? []
      : [
          auditRecordOf(
            by,
            change.next.changedAt ?? new Date(0),
            'availability.set',
            change.canteenId,
            `meal ${change.mealId}`,
            {
              meal_id: change.mealId,
              date: change.date,
              old_status: change.previous.status,
              new_status: change.next.status,
            },
          ),
        ];
}

/** What a menu upsert wrote: the meals of each canteen and which of them the catalog held before. */
export interface MenuUpsertOutcome {
  readonly meals: readonly { readonly id: MealId; readonly canteenId: CanteenId }[];
  readonly existed: ReadonlySet<MealId>;
}

/** A menu upserted: one entry per canteen, with the meal ids it added and changed (an upsert withdraws none). */
export function menuUpsertAudit(by: AuditActor, at: Date): AuditNote<MenuUpsertOutcome> {
  return ({ meals, existed }) => {
    const byCanteen = new Map<CanteenId, { added: MealId[]; changed: MealId[] }>();
    for (const meal of new Map(meals.map((each) => [each.id, each])).values()) {
      const group = byCanteen.get(meal.canteenId) ?? { added: [], changed: [] };
      byCanteen.set(meal.canteenId, group);
      (existed.has(meal.id) ? group.changed : group.added).push(meal.id);
    }
    return [...byCanteen].map(([canteenId, { added, changed }]) =>
      auditRecordOf(by, at, 'menu.upserted', canteenId, canteenId, {
        added: added.sort((a, b) => a - b),
        changed: changed.sort((a, b) => a - b),
        withdrawn: [],
      }),
    );
  };
}

/** What a first withdrawal of a meal came to. */
export interface WithdrawalOutcome {
  readonly mealId: MealId;
  readonly canteenId: CanteenId;
  readonly withdrawnAt: Date;
}

/** A meal withdrawn (the first time only: withdrawing it again changes nothing). */
export function withdrawalAudit(by: AuditActor): AuditNote<WithdrawalOutcome> {
  return ({ mealId, canteenId, withdrawnAt }) => [
    auditRecordOf(by, withdrawnAt, 'meal.withdrawn', canteenId, `meal ${mealId}`, { meal_id: mealId }),
  ];
}

/** A day closed or opened by an admin or a manager. */
export function dayClosureAudit(
  by: AuditActor,
  at: Date,
  canteenId: CanteenId,
): AuditNote<readonly { readonly date: LocalDate; readonly closed: boolean }[]> {
  return (days) =>
    days.map((day) =>
      auditRecordOf(by, at, day.closed ? 'day.closed' : 'day.opened', canteenId, day.date, { date: day.date }),
    );
}

const canteenFields = [
  'name',
  'timeZone',
  'city',
  'address',
  'coordinates',
  'openmensaId',
  'noteLabels',
  'placeholderNames',
] as const;
const wireNames: Readonly<Record<(typeof canteenFields)[number], string>> = {
  name: 'name',
  timeZone: 'time_zone',
  city: 'city',
  address: 'address',
  coordinates: 'coordinates',
  openmensaId: 'openmensa_id',
  noteLabels: 'note_labels',
  placeholderNames: 'placeholder_names',
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A canteen saved: created, restored (it was archived) or edited (the fields that changed, by their wire names), and
 * one entry per feed added, changed (its URL or schedule) or removed. Saving a canteen as it was records nothing.
 */
export function canteenSaveAudit(
  by: AuditActor,
  at: Date,
  before: CanteenRecord | undefined,
): AuditNote<{ readonly created: boolean; readonly canteen: StoredCanteen }> {
  return ({ created, canteen }) => {
    const records: AuditRecord[] = [];
    const record = (action: AuditRecord['action'], target: string, summary: AuditRecord['summary']) =>
      records.push(auditRecordOf(by, at, action, canteen.id, target, summary));
    const changed = canteenFields
      .filter((field) => before !== undefined && !same(before[field], canteen[field]))
      .map((field) => wireNames[field]);
    if (created || before === undefined) record('canteen.created', canteen.id, { name: canteen.name });
    else if (before.archivedAt !== null) record('canteen.restored', canteen.id, { changed });
    else if (changed.length > 0) record('canteen.edited', canteen.id, { changed });
    const feedsBefore = new Map<string, CanteenFeed>((before?.feeds ?? []).map((feed) => [feed.name, feed]));
    for (const feed of canteen.feeds) {
      const old = feedsBefore.get(feed.name);
      feedsBefore.delete(feed.name);
      if (old === undefined)
        record('feed.added', `feed ${feed.name}`, { feed: feed.name, url: feed.url, schedule: feed.schedule });
      else if (old.url !== feed.url || old.schedule !== feed.schedule) {
        record('feed.changed', `feed ${feed.name}`, {
          feed: feed.name,
          changed: [...(old.url !== feed.url ? ['url'] : []), ...(old.schedule !== feed.schedule ? ['schedule'] : [])],
          url: feed.url,
          schedule: feed.schedule,
        });
      }
    }
    for (const old of feedsBefore.values())
      record('feed.removed', `feed ${old.name}`, { feed: old.name, url: old.url });
    return records;
  };
}

/** A canteen archived (the first time: archiving it again changes nothing). */
export function canteenArchiveAudit(
  by: AuditActor,
  at: Date,
  canteenId: CanteenId,
): AuditNote<{ readonly archivedAt: Date }> {
  return ({ archivedAt }) =>
    archivedAt.getTime() === at.getTime() ? [auditRecordOf(by, at, 'canteen.archived', canteenId, canteenId, {})] : [];
}

/** A feed fetched by hand: what the fetch came to. */
export function feedFetchAuditRecord(
  by: AuditActor,
  at: Date,
  canteenId: CanteenId,
  feedName: string,
  outcome: { readonly ok: boolean; readonly httpStatus: number | null },
): AuditRecord {
  return auditRecordOf(by, at, 'feed.fetched', canteenId, `feed ${feedName}`, {
    feed: feedName,
    succeeded: outcome.ok,
    http_status: outcome.httpStatus,
  });
}

/** What a merge came to: the target, its canteen and the dishes that went into it. */
export interface DishMergeOutcome {
  readonly canteenId: CanteenId;
  readonly target: DishId;
  readonly sources: readonly DishId[];
}

/** Dishes merged: the target and the dishes that went into it. */
export function dishMergeAudit(by: AuditActor, at: Date): AuditNote<DishMergeOutcome> {
  return ({ canteenId, target, sources }) => [
    auditRecordOf(by, at, 'dishes.merged', canteenId, `dish ${target}`, { target, merged: [...sources] }),
  ];
}

/** A webhook created or changed (its URL and events; never its secret, only whether it was rotated). */
export function webhookSaveAudit(
  by: AuditActor,
  at: Date,
  secretRotated: boolean,
): AuditNote<{
  readonly created: boolean;
  readonly webhook: { readonly id: WebhookId; readonly url: string; readonly events: readonly string[] };
}> {
  return ({ created, webhook }) => [
    auditRecordOf(by, at, created ? 'webhook.created' : 'webhook.changed', null, `webhook ${webhook.id}`, {
      url: webhook.url,
      events: [...webhook.events],
      secret_rotated: !created && secretRotated,
    }),
  ];
}

/** A webhook deleted. */
export function webhookDeleteAudit(by: AuditActor, at: Date): AuditNote<{ readonly id: WebhookId }> {
  return ({ id }) => [auditRecordOf(by, at, 'webhook.deleted', null, `webhook ${id}`, {})];
}
