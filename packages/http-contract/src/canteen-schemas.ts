import {
  canteenTextMaxLength,
  maxCanteenSpellings,
  maxFeedsPerCanteen,
  maxFeedUrlLength,
  maxOpenMensaId,
} from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';
import { LabelCode } from './label-schemas.js';
import { bidiRule, visibleTextWithoutBidiControls } from './text-patterns.js';

export const CanteenId = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]{0,63}$',
  description: 'Canteen id: a lowercase slug, e.g. "mensa-academica"; absent in an upsert means "default"',
});

const CanteenText = Type.String({
  minLength: 1,
  maxLength: canteenTextMaxLength,
  pattern: visibleTextWithoutBidiControls,
  description: `not blank; no control character, ${bidiRule}, no unpaired surrogate`,
});

export const Coordinates = Type.Object(
  {
    lat: Type.Number({ minimum: -90, maximum: 90, description: 'Degrees north' }),
    lng: Type.Number({ minimum: -180, maximum: 180, description: 'Degrees east' }),
  },
  { additionalProperties: false },
);

export const CanteenParams = Type.Object({ canteen_id: Type.String({ description: 'Canteen id' }) });

export const CanteenFeed = Type.Object(
  {
    name: Type.String({
      pattern: '^[a-z0-9][a-z0-9-]{0,31}$',
      description: 'The feed within its canteen, e.g. "full" or "today"',
    }),
    url: Type.String({
      minLength: 1,
      maxLength: maxFeedUrlLength,
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
      description: 'An http(s) URL of an OpenMensa v2 feed',
    }),
    schedule: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'A cron expression (5 fields, or 6 with seconds first), on the canteen\'s clocks: e.g. "0 6 * * *"',
    }),
  },
  { additionalProperties: false },
);

export const FeedParams = Type.Object({
  canteen_id: Type.String({ description: 'Canteen id' }),
  feed_name: Type.String({ description: 'Feed name' }),
});

/** One feed with what the service remembers of its fetches. */
export const FeedSummaryData = Type.Object({
  name: Type.String(),
  url: Type.String(),
  schedule: Type.String(),
  last_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_success_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  http_status: Type.Union([Type.Integer(), Type.Null()], {
    description: "The last attempt's HTTP status; null without an answer",
  }),
  duration_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  outcome: Type.Union([Type.Literal('imported'), Type.Literal('not_modified'), Type.Literal('failed'), Type.Null()], {
    description: 'null before the first attempt',
  }),
  counts: Type.Union(
    [
      Type.Object({
        added: Type.Integer({ minimum: 0 }),
        changed: Type.Integer({ minimum: 0 }),
        unchanged: Type.Integer({ minimum: 0 }),
        withdrawn: Type.Integer({ minimum: 0 }),
      }),
      Type.Null(),
    ],
    { description: 'Of the last import' },
  ),
  last_error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the last attempt failed, at most 2000 characters; URLs without their query',
  }),
  next_run_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'When the feed is next fetched: when the schedule fires next, or earlier, the retry after a failure (30 s, doubling)',
  }),
});
export type FeedSummaryData = Static<typeof FeedSummaryData>;

export const FeedsData = Type.Object({ feeds: Type.Array(FeedSummaryData) });

/** The canteen's own note spellings, beside the built-in table: `{"mit Sesam": "sesame"}`. */
const NoteLabels = Type.Record(CanteenText, LabelCode, {
  maxProperties: maxCanteenSpellings,
  description:
    "The canteen's own note spellings and the label code each names, consulted before the built-in table; absent means none",
});

const PlaceholderNames = Type.Array(CanteenText, {
  maxItems: maxCanteenSpellings,
  description:
    'Names its feeds give entries that are no meal, beside "Kein Angebot", "geschlossen", "no offer"; absent means none',
});

/** PUT /admin/canteens/{canteen_id}: the whole canteen; absent optional fields become null. */
const OpenMensaId = Type.Integer({
  minimum: 1,
  maximum: maxOpenMensaId,
  description: "The canteen's number in the OpenMensa API v2 (/api/v2/canteens/{id}): unique across canteens",
});

export const CanteenBody = Type.Object(
  {
    name: CanteenText,
    openmensa_id: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: maxOpenMensaId,
        description:
          "The canteen's number in the OpenMensa API v2, e.g. its id on openmensa.org; absent: a stored canteen keeps its own, a new one gets one no canteen has",
      }),
    ),
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. "Europe/Berlin"' }),
    city: Type.Optional(Type.Union([CanteenText, Type.Null()])),
    address: Type.Optional(Type.Union([CanteenText, Type.Null()])),
    coordinates: Type.Optional(Type.Union([Coordinates, Type.Null()])),
    feeds: Type.Optional(Type.Array(CanteenFeed, { maxItems: maxFeedsPerCanteen, description: 'Absent means none' })),
    note_labels: Type.Optional(NoteLabels),
    placeholder_names: Type.Optional(PlaceholderNames),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Mensa Academica',
        openmensa_id: 187,
        timezone: 'Europe/Berlin',
        city: 'Aachen',
        address: 'Pontwall 3, 52062 Aachen',
        coordinates: { lat: 50.77964, lng: 6.07838 },
      },
    ],
  },
);
export type CanteenBody = Static<typeof CanteenBody>;

export const CanteenData = Type.Object({
  canteen_id: Type.String(),
  openmensa_id: OpenMensaId,
  name: Type.String(),
  timezone: Type.String({ description: 'IANA time zone: the days of menus are days on its clocks' }),
  city: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
  coordinates: Type.Union([Coordinates, Type.Null()]),
  feeds: Type.Optional(
    Type.Array(CanteenFeed, {
      description: 'Only in the admin answer (PUT): a feed URL may carry a key, so public reads leave them out',
    }),
  ),
  note_labels: Type.Optional(NoteLabels),
  placeholder_names: Type.Optional(PlaceholderNames),
});
export type CanteenData = Static<typeof CanteenData>;

export const CanteensData = Type.Object({ canteens: Type.Array(CanteenData, { description: 'By canteen id' }) });
export type CanteensData = Static<typeof CanteensData>;

/** PUT /admin/canteens/{canteen_id}/days/{date}. */
export const DayParams = Type.Object({
  canteen_id: Type.String({ description: 'Canteen id' }),
  date: Type.String({
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    description: "A day on the canteen's calendar, YYYY-MM-DD",
  }),
});

export const DayClosedBody = Type.Object(
  {
    closed: Type.Boolean({
      description:
        'true: the canteen is closed that day (its meals still to be served are withdrawn); false: it is not',
    }),
  },
  { additionalProperties: false, examples: [{ closed: true }] },
);
export type DayClosedBody = Static<typeof DayClosedBody>;

export const DayClosedData = Type.Object({
  canteen_id: Type.String(),
  date: Type.String(),
  closed: Type.Boolean(),
  withdrawn_meal_ids: Type.Array(Type.Integer(), {
    description: 'The meals of the day this closing withdrew (still to be served)',
  }),
});
export type DayClosedData = Static<typeof DayClosedData>;

/** The days of an export: `from` (default today on the canteen's calendar) to `to`, up to 31 days. */
export const ExportDaysQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
        description: "First day (default: today on the canteen's calendar)",
      }),
    ),
    to: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
        description: 'Last day, at most 31 days after from (default: a span from from)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ExportDaysQuery = Static<typeof ExportDaysQuery>;

const ArchivedAt = Type.String({
  format: 'date-time',
  description: 'When the canteen was archived; archiving it again keeps this instant',
});

/** DELETE /admin/canteens/{canteen_id}: the canteen archived, and since when. */
export const ArchivedCanteenData = Type.Object({ canteen_id: Type.String(), archived_at: ArchivedAt });
export type ArchivedCanteenData = Static<typeof ArchivedCanteenData>;

/** A canteen in the admin's list: with its feeds, and `archived_at` (null while it is active). */
export const AdminCanteenData = Type.Object({
  ...CanteenData.properties,
  feeds: Type.Array(CanteenFeed),
  archived_at: Type.Union([ArchivedAt, Type.Null()], {
    description: 'When the canteen was archived; null while it is active',
  }),
});
export type AdminCanteenData = Static<typeof AdminCanteenData>;

export const AdminCanteensData = Type.Object({
  canteens: Type.Array(AdminCanteenData, { description: 'Every canteen, archived ones too, by canteen id' }),
});
export type AdminCanteensData = Static<typeof AdminCanteensData>;
