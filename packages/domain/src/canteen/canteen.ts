import { isTimeZone } from '../menu/local-time.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import {
  anyFeedUrl,
  feedsProblem,
  type CanteenFeed,
  type FeedUrlCheck,
  type ScheduleCheck,
} from '../feed/canteen-feed.js';
import { isTextField } from '../shared/storable-text.js';
import { isLabelCode, type LabelCode } from '../label/label.js';

/** A canteen's stable name in URLs and meals: a lowercase slug, e.g. `mensa-academica`. */
export type CanteenId = string;

export const canteenIdPattern = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Where meals go that name no canteen, and where the migration put the meals of the time before canteens. */
export const defaultCanteenId: CanteenId = 'default';

export const canteenTextMaxLength = 250;

/**
 * A canteen's number in the OpenMensa API v2 (its `id` there): a positive 32-bit integer, unique across canteens, so
 * that apps that saved a canteen of openmensa.org find it here under the same number.
 */
export type OpenMensaId = number;

export const maxOpenMensaId = 2_147_483_647;

export function isOpenMensaId(value: unknown): value is OpenMensaId {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= maxOpenMensaId;
}

export interface Coordinates {
  /** Degrees north, -90..90. */
  readonly lat: number;
  /** Degrees east, -180..180. */
  readonly lng: number;
}

/**
 * A place that serves meals. Its time zone says which calendar day a meal belongs to (menus, `date`, `from`/`to`);
 * the rating rules keep their exact instants.
 */
export interface Canteen {
  readonly id: CanteenId;
  readonly name: string;
  /** An IANA time zone, e.g. `Europe/Berlin`. */
  readonly timeZone: string;
  readonly city: string | null;
  readonly address: string | null;
  readonly coordinates: Coordinates | null;
  /** The menu feeds the service fetches on their schedules; empty when the menu comes by upsert or import only. */
  readonly feeds: readonly CanteenFeed[];
  /**
   * Its OpenMensa number. Absent when written: a stored canteen keeps its own, a new one gets one no canteen has.
   * Every repository answers it (see StoredCanteen).
   */
  readonly openmensaId?: OpenMensaId | undefined;
  /**
   * The canteen's own note spellings and the codes they name (`{"mit Sesam": "sesame"}`), consulted before the
   * built-in table when its meals are written. Absent: none; every repository answers it filled in.
   */
  readonly noteLabels?: Readonly<Record<string, LabelCode>>;
  /** Names its feeds give entries that are no meal ("Heute keine Ausgabe"), beside the built-in ones. Absent: none. */
  readonly placeholderNames?: readonly string[];
}

/** A canteen as repositories answer it: with its OpenMensa number. */
export type StoredCanteen = Canteen & { readonly openmensaId: OpenMensaId };

/**
 * A canteen as an admin lists it: an archived one too, with the instant it was archived (null while it is active).
 * An archived canteen is left out of every other read; its meals and ratings stay, and saving it makes it active.
 */
export type CanteenRecord = StoredCanteen & { readonly archivedAt: Date | null };

/** The most spellings and placeholder names one canteen may add. */
export const maxCanteenSpellings = 200;

export function isCanteenId(value: unknown): value is CanteenId {
  return typeof value === 'string' && canteenIdPattern.test(value);
}

/** Accepts any schedule: for callers that have no cron library (the domain has none); the server checks with one. */
export const anySchedule: ScheduleCheck = (schedule) => (schedule.trim() === '' ? 'must not be blank' : undefined);

/** The canteen as given, or what is wrong with the first field that is not. */
export function validateCanteen(
  canteen: Canteen,
  checkSchedule: ScheduleCheck = anySchedule,
  checkFeedUrl: FeedUrlCheck = anyFeedUrl,
): Result<Canteen, 'invalid_canteen'> {
  const problem = canteenProblem(canteen) ?? feedsProblem(canteen.feeds, canteen.timeZone, checkSchedule, checkFeedUrl);
  return problem === undefined ? accept(canteen) : refuse('invalid_canteen', problem);
}

function canteenProblem(canteen: Canteen): string | undefined {
  if (!isCanteenId(canteen.id)) return 'the canteen id must match ^[a-z0-9][a-z0-9-]{0,63}$';
  if (!isText(canteen.name)) return `the name must have ${textRule}`;
  if (canteen.openmensaId !== undefined && !isOpenMensaId(canteen.openmensaId)) {
    return `the openmensa_id must be an integer from 1 to ${maxOpenMensaId}`;
  }
  if (!isTimeZone(canteen.timeZone)) return `"${canteen.timeZone}" is not an IANA time zone`;
  if (canteen.city !== null && !isText(canteen.city)) return `the city must be null or have ${textRule}`;
  if (canteen.address !== null && !isText(canteen.address)) return `the address must be null or have ${textRule}`;
  const at = canteen.coordinates;
  if (at !== null && !(inRange(at.lat, 90) && inRange(at.lng, 180))) {
    return 'the coordinates must have lat from -90 to 90 and lng from -180 to 180';
  }
  return labelSettingsProblem(canteen);
}

function labelSettingsProblem(canteen: Canteen): string | undefined {
  const spellings = Object.entries(canteen.noteLabels ?? {});
  if (spellings.length > maxCanteenSpellings) return `note_labels holds at most ${maxCanteenSpellings} spellings`;
  for (const [spelling, code] of spellings) {
    if (!isText(spelling)) return `each note_labels spelling must have ${textRule}`;
    if (!isLabelCode(code)) return `note_labels: "${code}" is not a label code (see GET /api/v1/labels)`;
  }
  const names = canteen.placeholderNames ?? [];
  if (names.length > maxCanteenSpellings) return `placeholder_names holds at most ${maxCanteenSpellings} names`;
  if (!names.every(isText)) return `each of placeholder_names must have ${textRule}`;
  return undefined;
}

const inRange = (value: number, limit: number) => Number.isFinite(value) && value >= -limit && value <= limit;

const textRule = `1 to ${canteenTextMaxLength} characters, not blank nor invisible, no control character, no noncharacter (U+FDD0-U+FDEF, U+FFFE, U+FFFF) and no unpaired surrogate`;

const isText = (value: unknown) => isTextField(value, canteenTextMaxLength);
