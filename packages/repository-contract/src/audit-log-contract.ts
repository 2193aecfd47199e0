import {
  auditRecordOf,
  availabilityAudit,
  canteenArchiveAudit,
  canteenSaveAudit,
  dayClosureAudit,
  decideAvailability,
  decideDishMerge,
  dishMergeAudit,
  menuUpsertAudit,
  webhookDeleteAudit,
  webhookSaveAudit,
  withdrawalAudit,
  type AuditActor,
  type AuditEntry,
  type AuditRecord,
  type Canteen,
} from '@canteen-meals/domain';
import type { AuditLog } from '@canteen-meals/domain/ports';
import { describe, expect, it } from 'vitest';
import { MealMother } from './meal-mother.js';
import { freshFixturePerTest } from './repository-fixture.js';
import { webhookDefinition, type WebhookRepositoryFixture } from './webhook-fixture.js';

/** Every port over one fresh store, the audit trail included. */
export interface AuditRepositoryFixture extends WebhookRepositoryFixture {
  readonly audit: AuditLog;
}

export type CreateAuditRepositoryFixture = () => AuditRepositoryFixture | Promise<AuditRepositoryFixture>;

const lunch = new Date('2026-03-10T11:30:00.000Z');
const minutes = (n: number) => new Date(lunch.getTime() + n * 60_000);
const manager: AuditActor = { actor: 'maria', actorScopes: ['meals:manage@nord'], requestId: 'req-1' };
const admin: AuditActor = { actor: 'root', actorScopes: ['meals:write'], requestId: 'req-2' };
const nord: Canteen = {
  id: 'nord',
  name: 'Mensa Nord',
  timeZone: 'UTC',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
};

const withoutId = ({ id, ...rest }: AuditEntry) => rest;

/**
 * What every store's audit trail does: entries come back as appended, newest first, filtered and paged by a cursor,
 * and deleted by age; and every staff change appends its entries in the change's own unit of work: a refused change
 * appends none, and a change whose note throws leaves neither the change nor an entry.
 */
export function describeAuditLogContract(adapterName: string, createFixture: CreateAuditRepositoryFixture): void {
  describe(`AuditLog contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const all = () => store().audit.list({ limit: 100 });
    const record = (by: AuditActor, at: Date, action: AuditRecord['action'], canteenId: string | null) =>
      auditRecordOf(by, at, action, canteenId, canteenId ?? 'webhook ops', { note: 'ü "quoted"', n: [1, 2] });

    it('answers what was appended, with ids, newest first; equal instants in the order of appending, reversed', async () => {
      const { audit } = store();
      await audit.append([record(manager, minutes(0), 'canteen.edited', 'nord')]);
      await audit.append([
        record(admin, minutes(5), 'webhook.created', null),
        record(admin, minutes(5), 'webhook.changed', null),
      ]);
      const entries = await all();
      expect(entries.map((entry) => entry.action)).toEqual(['webhook.changed', 'webhook.created', 'canteen.edited']);
      expect(withoutId(entries[2]!)).toEqual(record(manager, minutes(0), 'canteen.edited', 'nord'));
      expect(new Set(entries.map((entry) => entry.id)).size).toBe(3);
    });

    it('keeps the order of appending past nine entries of one instant (ids compare as numbers would)', async () => {
      const { audit } = store();
      const targets = Array.from({ length: 12 }, (_, n) => `meal ${n}`);
      await audit.append(targets.map((target) => ({ ...record(admin, lunch, 'meal.withdrawn', 'nord'), target })));
      const first = await audit.list({ limit: 5 });
      const rest = await audit.list({ limit: 20, after: first.at(-1)! });
      expect([...first, ...rest].map((entry) => entry.target)).toEqual([...targets].reverse());
    });

    it('filters by canteens, actor, action and period (from included, to excluded), and pages by a cursor', async () => {
      const { audit } = store();
      await audit.append([
        record(manager, minutes(0), 'availability.set', 'nord'),
        record(manager, minutes(1), 'menu.upserted', 'nord'),
        record(admin, minutes(2), 'menu.upserted', 'sued'),
        record(admin, minutes(3), 'webhook.deleted', null),
        record(manager, minutes(4), 'availability.set', 'nord'),
      ]);
      const actions = async (query: Parameters<AuditLog['list']>[0]) =>
        (await audit.list(query)).map((entry) => `${entry.action}@${entry.at.getTime() - lunch.getTime()}`);
      expect(await actions({ limit: 10, canteenIds: ['nord'] })).toEqual([
        'availability.set@240000',
        'menu.upserted@60000',
        'availability.set@0',
      ]);
      expect(await actions({ limit: 10, canteenIds: ['nord', 'sued'], action: 'menu.upserted' })).toHaveLength(2);
      expect(await actions({ limit: 10, actor: 'root' })).toEqual(['webhook.deleted@180000', 'menu.upserted@120000']);
      expect(await actions({ limit: 10, from: minutes(1), to: minutes(3) })).toEqual([
        'menu.upserted@120000',
        'menu.upserted@60000',
      ]);
      expect(await actions({ limit: 10, canteenIds: [] })).toEqual([]);
      expect(await actions({ limit: 10, ofCanteens: true, actor: 'root' })).toEqual(['menu.upserted@120000']);
      const first = await audit.list({ limit: 2 });
      const last = first.at(-1)!;
      const rest = await audit.list({ limit: 10, after: { at: last.at, id: last.id } });
      expect([...first, ...rest].map((entry) => entry.at.getTime())).toEqual(
        [4, 3, 2, 1, 0].map((n) => minutes(n).getTime()),
      );
    });

    it('deletes the entries older than an instant, and answers how many', async () => {
      const { audit } = store();
      await audit.append([0, 1, 2].map((n) => record(admin, minutes(n), 'webhook.changed', null)));
      expect(await audit.deleteOlderThan(minutes(2))).toBe(2);
      expect((await all()).map((entry) => entry.at)).toEqual([minutes(2)]);
    });

    it('records an availability change with its old and new status; the same status again and a refusal record nothing', async () => {
      const { meals, availability } = store();
      await meals.upsertMany([MealMother.servedAt(lunch, { id: 1 })]);
      const set = (status: 'sold_out' | 'available', mealId = 1) =>
        availability.change(
          mealId,
          (snapshot) => decideAvailability(snapshot, { status, now: minutes(1), anyDay: true }),
          availabilityAudit(manager),
        );
      await set('sold_out');
      await set('sold_out');
      await set('sold_out', 99);
      expect((await all()).map(withoutId)).toEqual([
        auditRecordOf(manager, minutes(1), 'availability.set', 'default', 'meal 1', {
          meal_id: 1,
          date: '2026-03-10',
          old_status: 'available',
          new_status: 'sold_out',
        }),
      ]);
    });

    it('writes neither the change nor an entry when its note throws (one unit of work)', async () => {
      const { meals, availability, queries, webhooks } = store();
      await meals.upsertMany([MealMother.servedAt(lunch, { id: 1 })]);
      const failing = () => {
        throw new Error('the note failed');
      };
      await expect(
        availability.change(
          1,
          (snapshot) => decideAvailability(snapshot, { status: 'sold_out', now: minutes(1), anyDay: true }),
          failing,
        ),
      ).rejects.toThrow('the note failed');
      expect((await queries.viewsByIds(null, [1], lunch))[0]?.availability.status).toBe('available');
      await expect(webhooks.save(webhookDefinition('ops'), lunch, failing)).rejects.toThrow('the note failed');
      expect(await webhooks.find('ops')).toBeUndefined();
      await expect(
        meals.upsertMany([MealMother.servedAt(lunch, { id: 2 })], undefined, lunch, failing),
      ).rejects.toThrow('the note failed');
      expect(await queries.viewsByIds(null, [2], lunch)).toEqual([]);
      expect(await all()).toEqual([]);
    });

    it('records the menu upserted per canteen (meals added and changed), a withdrawal once, and closed and opened days', async () => {
      const { meals, canteens, closedDays } = store();
      await canteens.save(nord);
      await meals.upsertMany([MealMother.servedAt(lunch, { id: 1 })]);
      await meals.upsertMany(
        [
          MealMother.servedAt(lunch, { id: 1 }),
          MealMother.servedAt(lunch, { id: 2 }),
          MealMother.servedAt(lunch, { id: 3, canteenId: 'nord' }),
        ],
        undefined,
        minutes(1),
        menuUpsertAudit(admin, minutes(1)),
      );
      await meals.withdraw(2, minutes(2), withdrawalAudit(admin));
      await meals.withdraw(2, minutes(3), withdrawalAudit(admin));
      await closedDays.record(
        'nord',
        [{ date: '2026-03-12', closed: true }],
        dayClosureAudit(manager, minutes(4), 'nord'),
      );
      await closedDays.record(
        'nord',
        [{ date: '2026-03-12', closed: false }],
        dayClosureAudit(manager, minutes(5), 'nord'),
      );
      const entries = (await all()).map((entry) => [entry.action, entry.canteenId, entry.target, entry.summary]);
      expect(entries).toEqual([
        ['day.opened', 'nord', '2026-03-12', { date: '2026-03-12' }],
        ['day.closed', 'nord', '2026-03-12', { date: '2026-03-12' }],
        ['meal.withdrawn', 'default', 'meal 2', { meal_id: 2 }],
        ...[
          ['menu.upserted', 'nord', 'nord', { added: [3], changed: [], withdrawn: [] }],
          ['menu.upserted', 'default', 'default', { added: [2], changed: [1], withdrawn: [] }],
        ].sort((a, b) => ((a[1] as string) < (b[1] as string) ? 1 : -1)),
      ]);
    });

    it('records canteens created, edited (the fields), with their feeds, archived once and restored', async () => {
      const { canteens } = store();
      const save = async (canteen: Canteen, at: Date) => {
        const before = (await canteens.listWithArchived()).find((each) => each.id === canteen.id);
        return canteens.save(canteen, canteenSaveAudit(admin, at, before));
      };
      const feed = { name: 'full', url: 'https://feeds.example/nord.xml', schedule: '0 6 * * *' };
      await save({ ...nord, feeds: [] }, minutes(0));
      await save({ ...nord, name: 'Mensa Nord II', feeds: [feed] }, minutes(1));
      await save({ ...nord, name: 'Mensa Nord II', feeds: [{ ...feed, schedule: '0 7 * * *' }] }, minutes(2));
      await save({ ...nord, name: 'Mensa Nord II', feeds: [{ ...feed, schedule: '0 7 * * *' }] }, minutes(3));
      await canteens.archive('nord', minutes(4), canteenArchiveAudit(admin, minutes(4), 'nord'));
      await canteens.archive('nord', minutes(5), canteenArchiveAudit(admin, minutes(5), 'nord'));
      await save({ ...nord, name: 'Mensa Nord II', feeds: [] }, minutes(6));
      const entries = (await all()).map((entry) => [entry.action, entry.target, entry.summary]);
      expect(entries).toEqual([
        ['feed.removed', 'feed full', { feed: 'full', url: feed.url }],
        ['canteen.restored', 'nord', { changed: [] }],
        ['canteen.archived', 'nord', {}],
        ['feed.changed', 'feed full', { feed: 'full', changed: ['schedule'], url: feed.url, schedule: '0 7 * * *' }],
        ['feed.added', 'feed full', { feed: 'full', url: feed.url, schedule: feed.schedule }],
        ['canteen.edited', 'nord', { changed: ['name'] }],
        ['canteen.created', 'nord', { name: 'Mensa Nord' }],
      ]);
    });

    it('records webhooks created, changed and deleted (never their secret), and dishes merged', async () => {
      const { webhooks, meals, dishes, queries } = store();
      await webhooks.save(webhookDefinition('ops'), minutes(0), webhookSaveAudit(admin, minutes(0), false));
      await webhooks.save(
        webhookDefinition('ops', { events: ['menu.published'] }),
        minutes(1),
        webhookSaveAudit(admin, minutes(1), true),
      );
      await webhooks.remove('ops', webhookDeleteAudit(admin, minutes(2)));
      await webhooks.remove('ops', webhookDeleteAudit(admin, minutes(3)));
      await meals.upsertMany([
        MealMother.servedAt(lunch, { id: 1, name: 'Chili' }),
        MealMother.servedAt(lunch, { id: 2, name: 'Chili scharf' }),
      ]);
      const dishOf = async (mealId: number) => (await queries.viewsByIds(null, [mealId], lunch))[0]!.dish!.id;
      const [target, source] = [await dishOf(1), await dishOf(2)];
      await dishes.merge(
        target,
        [source],
        (snapshot) => decideDishMerge({ target, from: [source] }, snapshot),
        dishMergeAudit(manager, minutes(4)),
      );
      const entries = await all();
      expect(entries.map((entry) => [entry.action, entry.canteenId, entry.target])).toEqual([
        ['dishes.merged', 'default', `dish ${target}`],
        ['webhook.deleted', null, 'webhook ops'],
        ['webhook.changed', null, 'webhook ops'],
        ['webhook.created', null, 'webhook ops'],
      ]);
      expect(entries[0]!.summary).toEqual({ target, merged: [source] });
      expect(entries[2]!.summary).toEqual({
        url: 'https://receiver.example/ops',
        events: ['menu.published'],
        secret_rotated: true,
      });
      expect(JSON.stringify(entries)).not.toContain('whsec_');
    });
  });
}
