import { isLocalDate } from '@canteen-meals/domain';

/**
 * The OpenMensa feed format v2 (versions 2.0 and 2.1) as data: every element type of its XML Schema with its
 * attributes and content model. `check-feed-schema.ts` checks a parsed feed against it, so this file is the one
 * place that says what a valid feed is. Written from the published schema; no npm package validates XSD in pure JS.
 */
export const openMensaNamespace = 'http://openmensa.org/open-mensa-v2';

/** A problem with a value, or undefined when it is fine. */
export type ValueCheck = (value: string) => string | undefined;

export interface AttributeRule {
  readonly required: boolean;
  readonly value: ValueCheck;
}

/** A child element: its name, how often it may occur, its type. */
export interface Particle {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly type: ElementType;
}

export type Content =
  | { readonly kind: 'sequence'; readonly particles: readonly Particle[] }
  /** Exactly one of the particles, repeated within its bounds. */
  | { readonly kind: 'choice'; readonly particles: readonly Particle[] }
  /** Each particle at most once, in any order. */
  | { readonly kind: 'all'; readonly particles: readonly Particle[] }
  | { readonly kind: 'empty' }
  /** Text only, no child elements. */
  | { readonly kind: 'text'; readonly value: ValueCheck };

export interface ElementType {
  readonly attributes: Readonly<Record<string, AttributeRule>>;
  readonly content: Content;
}

// Values. XML Schema collapses white space around numbers; strings, enumerations and patterns see the raw value.

const anyString: ValueCheck = () => undefined;

const codePoints = (value: string) => [...value].length;

const lengthBetween =
  (min: number, max: number): ValueCheck =>
  (value) =>
    codePoints(value) >= min && codePoints(value) <= max
      ? undefined
      : min === max
        ? `must be empty, not "${value}"`
        : `must have ${min} to ${max} characters (has ${codePoints(value)})`;

const floatLexical = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^[+-]?INF$|^NaN$/;

export const collapse = (value: string) => value.replace(/[\t\n\r ]+/g, ' ').trim();

const float: ValueCheck = (value) => (floatLexical.test(collapse(value)) ? undefined : `"${value}" is not a number`);

const int: ValueCheck = (value) => {
  const collapsed = collapse(value);
  const number = Number(collapsed);
  return /^[+-]?\d+$/.test(collapsed) && number >= -(2 ** 31) && number < 2 ** 31
    ? undefined
    : `"${value}" is not an int`;
};

const oneOf =
  (...allowed: string[]): ValueCheck =>
  (value) =>
    allowed.includes(value) ? undefined : `"${value}" is not one of ${allowed.join(', ')}`;

/** An XML Schema pattern matches the whole value. */
const pattern =
  (regex: RegExp, shape: string): ValueCheck =>
  (value) =>
    regex.test(value) ? undefined : `"${value}" does not have the form ${shape}`;

const feedVersion: ValueCheck = (value) =>
  float(value) === undefined && [2, 2.1].includes(Number(collapse(value)))
    ? undefined
    : `version "${value}" is not 2.0 or 2.1: this is not an OpenMensa v2 feed`;

/**
 * The schema's xs:float, and (beyond it) a place on the globe: canteens are found by their coordinates, so NaN, INF
 * or a latitude past a pole would put a canteen nowhere. Exponent forms stay valid, as in the schema ("4.9e1").
 */
const degrees =
  (limit: number): ValueCheck =>
  (value) => {
    const number = Number(collapse(value));
    if (float(value) !== undefined || !Number.isFinite(number)) return `"${value}" is not a decimal number of degrees`;
    return Math.abs(number) <= limit ? undefined : `${collapse(value)} is outside -${limit}..${limit} degrees`;
  };

/** The schema's pattern, and (beyond it) a day that exists in the calendar. */
const calendarDay: ValueCheck = (value) =>
  pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')(value) ??
  (isLocalDate(value) ? undefined : `"${value}" is not a day of the calendar`);

// Element types, from the leaves up.

const required = (value: ValueCheck): AttributeRule => ({ required: true, value });
const optional = (value: ValueCheck): AttributeRule => ({ required: false, value });
const once = (name: string, type: ElementType): Particle => ({ name, min: 1, max: 1, type });
const maybe = (name: string, type: ElementType): Particle => ({ name, min: 0, max: 1, type });
const many = (name: string, min: number, type: ElementType): Particle => ({ name, min, max: Infinity, type });
const text = (value: ValueCheck, attributes: ElementType['attributes'] = {}): ElementType => ({
  attributes,
  content: { kind: 'text', value },
});
const sequence = (particles: Particle[], attributes: ElementType['attributes'] = {}): ElementType => ({
  attributes,
  content: { kind: 'sequence', particles },
});

const priceType = text(float, { role: required(oneOf('pupil', 'student', 'employee', 'other')) });

const mealType = sequence([
  once('name', text(lengthBetween(1, 250))),
  many('note', 0, text(lengthBetween(1, 250))),
  many('price', 0, priceType),
]);

const categoryType = sequence([many('meal', 1, mealType)], { name: required(lengthBetween(1, 250)) });

const dayType: ElementType = {
  attributes: { date: required(calendarDay) },
  content: {
    kind: 'choice',
    particles: [many('category', 1, categoryType), once('closed', text(lengthBetween(0, 0)))],
  },
};

const scheduleType: ElementType = {
  attributes: {
    dayOfMonth: optional(anyString),
    dayOfWeek: optional(anyString),
    month: optional(anyString),
    hour: required(anyString),
    minute: optional(anyString),
    retry: optional(pattern(/^\d+\s+\d+(\s+\d+)?$/, '"<seconds> <count> [<seconds>]"')),
  },
  content: { kind: 'empty' },
};

const feedType: ElementType = {
  attributes: { name: required(anyString), priority: optional(int) },
  content: {
    kind: 'all',
    particles: [maybe('schedule', scheduleType), once('url', text(anyString)), maybe('source', text(anyString))],
  },
};

const weekdayType: ElementType = {
  attributes: {
    open: optional(pattern(/^\d\d:\d\d-\d\d:\d\d$/, 'HH:MM-HH:MM')),
    closed: optional(oneOf('true')),
  },
  content: { kind: 'empty' },
};

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const timesType = sequence(
  weekdays.map((day) => maybe(day, weekdayType)),
  { type: required(oneOf('opening')) },
);

const locationType: ElementType = {
  attributes: { latitude: required(degrees(90)), longitude: required(degrees(180)) },
  content: { kind: 'empty' },
};

/** The canteen's metadata in the schema's order (all optional, each at most once), then its feeds and days. */
const canteenType = sequence([
  maybe('name', text(anyString)),
  maybe('address', text(anyString)),
  maybe('city', text(anyString)),
  maybe('phone', text(anyString)),
  maybe('email', text(anyString)),
  maybe('location', locationType),
  maybe('availability', text(oneOf('public', 'restricted'))),
  maybe('times', timesType),
  many('feed', 0, feedType),
  many('day', 0, dayType),
]);

export const openMensaType = sequence([maybe('version', text(lengthBetween(0, 63))), once('canteen', canteenType)], {
  version: required(feedVersion),
});
