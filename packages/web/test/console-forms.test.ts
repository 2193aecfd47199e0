import { describe, expect, it } from 'vitest';
import {
  canteenRequestOf,
  emptyCanteenFields,
  fieldsOf,
  restoreRequestOf,
  type AdminCanteen,
  type CanteenFields,
} from '../src/console/canteen-form.js';
import { webhookEventTypes } from '@canteen-meals/client';
import {
  firstOfMonth,
  mergeRequestOf,
  reportFileName,
  reportRequestOf,
  webhookEvents,
  webhookRequestOf,
} from '../src/console/console-requests.js';

const fields = (overrides: Partial<CanteenFields> = {}): CanteenFields => ({
  ...emptyCanteenFields,
  id: 'mensa-nord',
  name: 'Mensa Nord',
  ...overrides,
});
const feed = { name: 'full', url: 'https://mensa.example/full.xml', schedule: '0 6 * * *' };

const stored: AdminCanteen = {
  canteen_id: 'mensa-nord',
  openmensa_id: 187,
  name: 'Mensa Nord',
  timezone: 'Europe/Berlin',
  city: 'Aachen',
  address: null,
  coordinates: { lat: 50.78, lng: 6.08 },
  feeds: [feed],
  note_labels: { 'mit Sesam': 'sesame' },
  placeholder_names: ['Heute geschlossen'],
  archived_at: '2026-03-01T10:00:00.000Z',
};

describe('canteenRequestOf', () => {
  it('turns the fields into the PUT body: blanks become null, text trimmed, a German decimal comma read', () => {
    const checked = canteenRequestOf(
      fields({
        name: '  Mensa Nord ',
        city: ' ',
        latitude: '50,7796',
        longitude: '6.0784',
        openmensaId: '42',
        feeds: [feed],
      }),
    );
    expect(checked).toEqual({
      ok: true,
      value: {
        canteenId: 'mensa-nord',
        request: {
          name: 'Mensa Nord',
          timezone: 'Europe/Berlin',
          city: null,
          address: null,
          coordinates: { lat: 50.7796, lng: 6.0784 },
          feeds: [feed],
          openmensa_id: 42,
        },
      },
    });
  });

  it('leaves out an empty OpenMensa number (the API keeps or assigns one) and a feed row left blank', () => {
    const checked = canteenRequestOf(fields({ feeds: [{ name: '', url: ' ', schedule: '' }] }));
    expect(checked.ok && checked.value.request).toEqual({
      name: 'Mensa Nord',
      timezone: 'Europe/Berlin',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
    });
  });

  it('names each wrong field, feeds by their row', () => {
    const checked = canteenRequestOf({
      id: 'Mensa Nord',
      name: ' ',
      timezone: 'Europe/Aachen',
      city: '',
      address: '',
      latitude: '91',
      longitude: 'east',
      openmensaId: '1.5',
      feeds: [
        feed,
        { name: 'full', url: 'ftp://mensa.example/f.xml', schedule: '0 6 * *' },
        { name: 'Today!', url: feed.url, schedule: feed.schedule },
      ],
    });
    expect(checked).toEqual({
      ok: false,
      problems: [
        { field: 'id', problem: 'canteenId' },
        { field: 'name', problem: 'required' },
        { field: 'timezone', problem: 'timezone' },
        { field: 'latitude', problem: 'latitude' },
        { field: 'longitude', problem: 'longitude' },
        { field: 'openmensaId', problem: 'openmensaId' },
        { field: 'feeds.1.name', problem: 'feedNameTwice' },
        { field: 'feeds.1.url', problem: 'feedUrl' },
        { field: 'feeds.1.schedule', problem: 'feedSchedule' },
        { field: 'feeds.2.name', problem: 'feedName' },
      ],
    });
  });

  it('asks for both coordinates or neither, and accepts a six-field schedule (seconds first)', () => {
    expect(canteenRequestOf(fields({ latitude: '50.1' }))).toEqual({
      ok: false,
      problems: [{ field: 'longitude', problem: 'coordinatesPair' }],
    });
    expect(canteenRequestOf(fields({ feeds: [{ ...feed, schedule: '0  0 6 * * 1-5' }] })).ok).toBe(true);
    expect(canteenRequestOf(fields({ id: '' }))).toEqual({
      ok: false,
      problems: [{ field: 'id', problem: 'required' }],
    });
  });

  it("sends back what the form does not show, so an edit keeps the canteen's own spellings", () => {
    const checked = canteenRequestOf(fieldsOf(stored), stored);
    expect(checked.ok && checked.value.request).toEqual({ ...restoreRequestOf(stored) });
  });
});

describe('fieldsOf and restoreRequestOf', () => {
  it('show a stored canteen in the form, and restore it as it was (without its archived_at)', () => {
    expect(fieldsOf(stored)).toEqual({
      id: 'mensa-nord',
      name: 'Mensa Nord',
      timezone: 'Europe/Berlin',
      city: 'Aachen',
      address: '',
      latitude: '50.78',
      longitude: '6.08',
      openmensaId: '187',
      feeds: [feed],
    });
    expect(restoreRequestOf(stored)).toEqual({
      name: 'Mensa Nord',
      timezone: 'Europe/Berlin',
      openmensa_id: 187,
      city: 'Aachen',
      address: null,
      coordinates: { lat: 50.78, lng: 6.08 },
      feeds: [feed],
      note_labels: { 'mit Sesam': 'sesame' },
      placeholder_names: ['Heute geschlossen'],
    });
  });
});

describe('webhookRequestOf', () => {
  it("checks the id, the URL and the events, and sends the events once each in the catalogue's order", () => {
    expect(
      webhookRequestOf({
        id: ' campus-app ',
        url: 'https://app.example/hooks',
        events: ['meal.withdrawn', 'menu.published', 'meal.withdrawn'],
      }),
    ).toEqual({
      ok: true,
      value: {
        webhookId: 'campus-app',
        request: { url: 'https://app.example/hooks', events: ['menu.published', 'meal.withdrawn'] },
      },
    });
    expect(webhookRequestOf({ id: 'campus app', url: 'https://app.example', events: ['menu.published'] })).toEqual({
      ok: false,
      problem: 'webhookId',
    });
    expect(webhookRequestOf({ id: 'a', url: 'app.example/hooks', events: ['menu.published'] })).toEqual({
      ok: false,
      problem: 'webhookUrl',
    });
    expect(webhookRequestOf({ id: 'a', url: 'http://app.example', events: [] })).toEqual({
      ok: false,
      problem: 'webhookEvents',
    });
  });
});

describe('mergeRequestOf', () => {
  it('merges the picked dishes into the target, leaving the target itself out', () => {
    expect(mergeRequestOf(7, [7, 9, 12, 9])).toEqual({ ok: true, value: { dishId: 7, request: { from: [9, 12] } } });
    expect(mergeRequestOf(undefined, [9])).toEqual({ ok: false, problem: 'noMergeTarget' });
    expect(mergeRequestOf(7, [7])).toEqual({ ok: false, problem: 'nothingToMerge' });
  });
});

describe('reportRequestOf', () => {
  it("takes a canteen's days from..to, at most 366, and names the file after them", () => {
    const checked = reportRequestOf('mensa-nord', '2024-03-01', '2025-02-28');
    expect(checked).toEqual({ ok: true, value: { canteen: 'mensa-nord', from: '2024-03-01', to: '2025-02-28' } });
    expect(checked.ok && reportFileName(checked.value)).toBe('ratings-mensa-nord-2024-03-01-2025-02-28.csv');
    expect(reportRequestOf('mensa-nord', '2024-03-01', '2025-03-01').ok).toBe(true);
    expect(reportRequestOf('mensa-nord', '2024-03-01', '2025-03-02')).toEqual({ ok: false, problem: 'reportTooLong' });
    expect(reportRequestOf('mensa-nord', '2024-03-02', '2024-03-01')).toEqual({ ok: false, problem: 'reportOrder' });
    expect(reportRequestOf('mensa-nord', '', '2024-03-01')).toEqual({ ok: false, problem: 'reportDays' });
    expect(reportRequestOf('', '2024-03-01', '2024-03-01')).toEqual({ ok: false, problem: 'noCanteen' });
    expect(firstOfMonth('2026-08-17')).toBe('2026-08-01');
  });
});

describe("the webhook form's events (issue 39)", () => {
  it('are every event the API accepts, meal.availability_changed among them', () => {
    expect([...webhookEvents]).toEqual([...webhookEventTypes]);
    expect(webhookEvents).toContain('meal.availability_changed');
  });
});
