import { createInMemoryAdapters } from '@canteen-meals/adapters-memory';
import {
  auditRecordOf,
  canteenSaveAudit,
  ListAuditEntries,
  menuUpsertAudit,
  type AuditActor,
  type CanteenRecord,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

const maria: AuditActor = { actor: 'maria', actorScopes: ['meals:manage@nord'], requestId: 'req-7' };
const at = new Date('2026-03-10T11:30:00.000Z');
const nord: CanteenRecord = {
  id: 'nord',
  name: 'Mensa Nord',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [{ name: 'full', url: 'https://feeds.example/nord.xml', schedule: '0 6 * * *' }],
  openmensaId: 1,
  noteLabels: {},
  placeholderNames: [],
  archivedAt: null,
};
const actionsOf = (records: readonly { action: string; target: string }[]) =>
  records.map((record) => `${record.action} ${record.target}`);

describe('what a staff change records', () => {
  it('a canteen saved: created, edited with the fields that changed, restored, or nothing when nothing changed', () => {
    const note = (before: CanteenRecord | undefined, after: CanteenRecord, created = false) =>
      canteenSaveAudit(maria, at, before)({ created, canteen: after });
    expect(actionsOf(note(undefined, nord, true))).toEqual(['canteen.created nord', 'feed.added feed full']);
    expect(note(nord, { ...nord, name: 'Nord', timeZone: 'UTC' })[0]?.summary).toEqual({
      changed: ['name', 'time_zone'],
    });
    expect(note(nord, nord)).toEqual([]);
    expect(actionsOf(note({ ...nord, archivedAt: at }, nord))).toEqual(['canteen.restored nord']);
    expect(actionsOf(note(nord, { ...nord, feeds: [] }))).toEqual(['feed.removed feed full']);
  });

  it('a menu upsert: one entry per canteen, with the meals it added and changed, never who rated them', () => {
    const records = menuUpsertAudit(
      maria,
      at,
    )({
      meals: [
        { id: 3, canteenId: 'nord' },
        { id: 1, canteenId: 'nord' },
        { id: 2, canteenId: 'sued' },
      ],
      existed: new Set([1]),
    });
    expect(records.map((record) => [record.canteenId, record.summary])).toEqual([
      ['nord', { added: [3], changed: [1], withdrawn: [] }],
      ['sued', { added: [2], changed: [], withdrawn: [] }],
    ]);
    expect(records[0]).toMatchObject({ actor: 'maria', actorScopes: ['meals:manage@nord'], requestId: 'req-7', at });
  });
});

describe('ListAuditEntries', () => {
  const seeded = async () => {
    const { audit } = createInMemoryAdapters();
    await audit.append([
      auditRecordOf(maria, at, 'availability.set', 'nord', 'meal 1', {}),
      auditRecordOf(maria, at, 'menu.upserted', 'sued', 'sued', {}),
      auditRecordOf(maria, at, 'webhook.deleted', null, 'webhook ops', {}),
    ]);
    return new ListAuditEntries({ audit });
  };

  it("answers a manager their canteens' entries, refuses another canteen naming it, and hides those of none", async () => {
    const list = await seeded();
    const mine = await list.execute({ visible: ['nord'], limit: 10 });
    expect(mine.ok && mine.value.entries.map((entry) => entry.target)).toEqual(['meal 1']);
    const other = await list.execute({ visible: ['nord'], canteenId: 'sued', limit: 10 });
    expect(other.ok ? null : other.refusal).toEqual({
      code: 'forbidden',
      message: 'You may not read the activity of the canteen "sued".',
    });
    const everyCanteen = await list.execute({ visible: 'canteens', limit: 10 });
    expect(everyCanteen.ok && everyCanteen.value.entries.map((entry) => entry.canteenId)).toEqual(['sued', 'nord']);
    const all = await list.execute({ visible: 'all', limit: 10 });
    expect(all.ok && all.value.entries).toHaveLength(3);
  });

  it('pages by a cursor: the next page starts after the last entry shown, and the last page has none', async () => {
    const list = await seeded();
    const first = await list.execute({ visible: 'all', limit: 2 });
    if (!first.ok) throw new Error('refused');
    expect(first.value.next).toEqual({ at, id: first.value.entries[1]!.id });
    const second = await list.execute({ visible: 'all', limit: 2, after: first.value.next! });
    expect(second.ok && [second.value.entries.length, second.value.next]).toEqual([1, null]);
  });
});
