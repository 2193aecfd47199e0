import { canteenTextMaxLength, maxCanteenSpellings, maxFeedsPerCanteen, maxFeedUrlLength } from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';
import { LabelCode } from './label-schemas.js';

export const CanteenId = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]{0,63}$',
  description: 'Canteen id: a lowercase slug, e.g. "mensa-academica"; absent in an upsert means "default"',
});

const CanteenText = Type.String({
  minLength: 1,
  maxLength: canteenTextMaxLength,
  pattern: '\\S',
  description: 'not blank; no control character, no unpaired surrogate',
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
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,31}$', description: 'The feed within its canteen, e.g. "full" or "today"' }),
    url: Type.String({ minLength: 1, maxLength: maxFeedUrlLength, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', description: 'An http(s) URL of an OpenMensa v2 feed' }),
    schedule: Type.String({
      minLength: 1,
      maxLength: 100,
      description: "A cron expression (5 fields, or 6 with seconds first), on the canteen's clocks: e.g. \"0 6 * * *\"",
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
  http_status: Type.Union([Type.Integer(), Type.Null()], { description: "The last attempt's HTTP status; null without an answer" }),
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
  last_error: Type.Union([Type.String(), Type.Null()]),
  next_run_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the schedule fires next' }),
});
export type FeedSummaryData = Static<typeof FeedSummaryData>;

export const FeedsData = Type.Object({ feeds: Type.Array(FeedSummaryData) });

/** The canteen's own note spellings, beside the built-in table: `{"mit Sesam": "sesame"}`. */
const NoteLabels = Type.Record(CanteenText, LabelCode, {
  maxProperties: maxCanteenSpellings,
  description: "The canteen's own note spellings and the label code each names, consulted before the built-in table; absent means none",
});

const PlaceholderNames = Type.Array(CanteenText, {
  maxItems: maxCanteenSpellings,
  description: 'Names its feeds give entries that are no meal, beside "Kein Angebot", "geschlossen", "no offer"; absent means none',
});

/** PUT /admin/canteens/{canteen_id}: the whole canteen; absent optional fields become null. */
export const CanteenBody = Type.Object(
  {
    name: CanteenText,
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
  name: Type.String(),
  timezone: Type.String({ description: 'IANA time zone: the days of menus are days on its clocks' }),
  city: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
  coordinates: Type.Union([Coordinates, Type.Null()]),
  feeds: Type.Optional(
    Type.Array(CanteenFeed, { description: 'Only in the admin answer (PUT): a feed URL may carry a key, so public reads leave them out' }),
  ),
  note_labels: Type.Optional(NoteLabels),
  placeholder_names: Type.Optional(PlaceholderNames),
});
export type CanteenData = Static<typeof CanteenData>;

export const CanteensData = Type.Object({ canteens: Type.Array(CanteenData, { description: 'By canteen id' }) });
export type CanteensData = Static<typeof CanteensData>;
