// The canteen form's text fields to the body of PUT /admin/canteens/{id}, and a stored canteen back to fields. Pure:
// the form shows the problems found here beside their fields, so a typo is named before the API is asked.
import type { AdminCanteensResult, SaveCanteenRequest } from '@canteen-meals/client';

export type AdminCanteen = AdminCanteensResult['canteens'][number];

export interface FeedFields {
  readonly name: string;
  readonly url: string;
  readonly schedule: string;
}

/** What the form's inputs hold, as text. */
export interface CanteenFields {
  readonly id: string;
  readonly name: string;
  readonly timezone: string;
  readonly city: string;
  readonly address: string;
  readonly latitude: string;
  readonly longitude: string;
  readonly openmensaId: string;
  readonly feeds: readonly FeedFields[];
}

/** Why a field is refused; texts.ts words each. */
export type FieldProblem =
  | 'required'
  | 'canteenId'
  | 'timezone'
  | 'latitude'
  | 'longitude'
  | 'coordinatesPair'
  | 'openmensaId'
  | 'feedName'
  | 'feedNameTwice'
  | 'feedUrl'
  | 'feedSchedule';

/** A field's problem; `field` is the form's field name (`name`, `feeds.0.url`...). */
export interface Problem {
  readonly field: string;
  readonly problem: FieldProblem;
}

export type Checked<Value> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly problems: readonly Problem[] };

// The API's own patterns (http-contract's CanteenId and CanteenFeed), checked here first to name the field.
const canteenIdPattern = /^[a-z0-9][a-z0-9-]{0,63}$/;
const feedNamePattern = /^[a-z0-9][a-z0-9-]{0,31}$/;
const feedUrlPattern = /^https?:\/\/\S+$/i;
const maxOpenMensaId = 2_147_483_647;

export const emptyCanteenFields: CanteenFields = {
  id: '',
  name: '',
  timezone: 'Europe/Berlin',
  city: '',
  address: '',
  latitude: '',
  longitude: '',
  openmensaId: '',
  feeds: [],
};

/** Whether the runtime knows the IANA zone (the API refuses one it does not know). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A decimal as people type it: "50.77", "50,77" (German), "-6.1". */
function decimalOf(text: string): number | null {
  const normalized = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(normalized)) return null;
  return Number(normalized);
}

const blankFeed = (feed: FeedFields) =>
  feed.name.trim() === '' && feed.url.trim() === '' && feed.schedule.trim() === '';

/**
 * The canteen's id and the request that saves it. `kept` carries what the form does not show (a canteen's own note
 * spellings and placeholder names): a PUT replaces the whole canteen, so an edit must send them back.
 */
export function canteenRequestOf(
  fields: CanteenFields,
  kept: Pick<Partial<AdminCanteen>, 'note_labels' | 'placeholder_names'> = {},
): Checked<{ canteenId: string; request: SaveCanteenRequest }> {
  const problems: Problem[] = [];
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  const canteenId = fields.id.trim();
  if (canteenId === '') problems.push({ field: 'id', problem: 'required' });
  else if (!canteenIdPattern.test(canteenId)) problems.push({ field: 'id', problem: 'canteenId' });
  const name = text(fields.name);
  if (name === null) problems.push({ field: 'name', problem: 'required' });
  const timezone = fields.timezone.trim();
  if (timezone === '') problems.push({ field: 'timezone', problem: 'required' });
  else if (!isTimeZone(timezone)) problems.push({ field: 'timezone', problem: 'timezone' });

  let coordinates: SaveCanteenRequest['coordinates'] = null;
  const latitudeText = fields.latitude.trim();
  const longitudeText = fields.longitude.trim();
  if (latitudeText !== '' || longitudeText !== '') {
    const lat = decimalOf(latitudeText);
    const lng = decimalOf(longitudeText);
    if (latitudeText === '' || longitudeText === '') {
      problems.push({ field: latitudeText === '' ? 'latitude' : 'longitude', problem: 'coordinatesPair' });
    } else {
      if (lat === null || lat < -90 || lat > 90) problems.push({ field: 'latitude', problem: 'latitude' });
      if (lng === null || lng < -180 || lng > 180) problems.push({ field: 'longitude', problem: 'longitude' });
      if (lat !== null && lng !== null) coordinates = { lat, lng };
    }
  }

  let openmensaId: number | undefined;
  const openmensaText = fields.openmensaId.trim();
  if (openmensaText !== '') {
    openmensaId = /^\d+$/.test(openmensaText) ? Number(openmensaText) : Number.NaN;
    if (!(openmensaId >= 1 && openmensaId <= maxOpenMensaId))
      problems.push({ field: 'openmensaId', problem: 'openmensaId' });
  }

  const feeds: { name: string; url: string; schedule: string }[] = [];
  const feedNames = new Set<string>();
  fields.feeds.forEach((feed, index) => {
    if (blankFeed(feed)) return;
    const name = feed.name.trim();
    const url = feed.url.trim();
    const schedule = feed.schedule.trim().replace(/\s+/g, ' ');
    if (!feedNamePattern.test(name)) problems.push({ field: `feeds.${index}.name`, problem: 'feedName' });
    else if (feedNames.has(name)) problems.push({ field: `feeds.${index}.name`, problem: 'feedNameTwice' });
    feedNames.add(name);
    if (!feedUrlPattern.test(url)) problems.push({ field: `feeds.${index}.url`, problem: 'feedUrl' });
    // The server checks the cron expression itself; here only its shape: 5 fields, or 6 with seconds first.
    const parts = schedule === '' ? 0 : schedule.split(' ').length;
    if (parts !== 5 && parts !== 6) problems.push({ field: `feeds.${index}.schedule`, problem: 'feedSchedule' });
    feeds.push({ name, url, schedule });
  });

  if (problems.length > 0) return { ok: false, problems };
  const request: SaveCanteenRequest = {
    name: name!,
    timezone,
    city: text(fields.city),
    address: text(fields.address),
    coordinates,
    feeds,
    ...(openmensaId === undefined ? {} : { openmensa_id: openmensaId }),
    ...(kept.note_labels === undefined ? {} : { note_labels: kept.note_labels }),
    ...(kept.placeholder_names === undefined ? {} : { placeholder_names: kept.placeholder_names }),
  };
  return { ok: true, value: { canteenId, request } };
}

/** A stored canteen as the form shows it. */
export function fieldsOf(canteen: AdminCanteen): CanteenFields {
  return {
    id: canteen.canteen_id,
    name: canteen.name,
    timezone: canteen.timezone,
    city: canteen.city ?? '',
    address: canteen.address ?? '',
    latitude: canteen.coordinates === null ? '' : String(canteen.coordinates.lat),
    longitude: canteen.coordinates === null ? '' : String(canteen.coordinates.lng),
    openmensaId: String(canteen.openmensa_id),
    feeds: canteen.feeds.map(({ name, url, schedule }) => ({ name, url, schedule })),
  };
}

/** The PUT that restores an archived canteen as it was (the API restores on any save). */
export function restoreRequestOf(canteen: AdminCanteen): SaveCanteenRequest {
  return {
    name: canteen.name,
    timezone: canteen.timezone,
    openmensa_id: canteen.openmensa_id,
    city: canteen.city,
    address: canteen.address,
    coordinates: canteen.coordinates,
    feeds: canteen.feeds.map(({ name, url, schedule }) => ({ name, url, schedule })),
    ...(canteen.note_labels === undefined ? {} : { note_labels: canteen.note_labels }),
    ...(canteen.placeholder_names === undefined ? {} : { placeholder_names: canteen.placeholder_names }),
  };
}
