import type { ErrorCode } from '@canteen-meals/adapters-http';
import type { ModelMeal, PriceRole, Rating, ServiceModel, Statistics } from './service-model.js';

/**
 * What the contract says a request must get, computed from the request alone and the model of the
 * stored state, independently of the service's code: either a success (and how it changes the model) or the
 * error codes it may answer.
 */

export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

export interface Principal {
  readonly userId: string;
  readonly admin: boolean;
}

export type Expected =
  | { readonly kind: 'success'; readonly data: unknown; readonly apply: () => void }
  | { readonly kind: 'error'; readonly codes: readonly ErrorCode[] }
  /**
   * Routes whose answers other tests check in detail (reads, erasure): 200 (applied when `apply` is given) or any 4xx.
   */
  | { readonly kind: 'loose'; readonly apply?: () => void };

const fail = (...codes: ErrorCode[]): Expected => ({ kind: 'error', codes });

const routes = {
  'POST /api/v1/rate-meal': { name: 'rate', bodyLimit: 1024 },
  'POST /api/v1/mark-meal': { name: 'mark', bodyLimit: 1024 },
  'PUT /api/v1/admin/meals': { name: 'admin', bodyLimit: 1024 * 1024 },
} as const;

/**
 * The read side, the erasure of one's own data and the withdrawal of a meal: authenticated, no body, no change
 * (erasure: the caller's rows; withdrawal, by an admin: the meal leaves the model's reachable meals).
 */
function otherRoute(method: string, path: string): 'read' | 'public-read' | 'erase' | 'withdraw' | undefined {
  if (method === 'DELETE' && path === '/api/v1/me/data') return 'erase';
  if (method === 'DELETE' && /^\/api\/v1\/admin\/meals\/[^/]+$/.test(path)) return 'withdraw';
  if (method !== 'GET') return undefined;
  if (['/api/v1/meals', '/api/v1/marked-meals', '/api/v1/rated-meals', '/api/v1/me/data'].includes(path)) return 'read';
  // One meal: its public fields without a token; a token that is sent must still be valid.
  return /^\/api\/v1\/meals\/[^/]+$/.test(path) ? 'public-read' : undefined;
}

export function expectedAnswer(
  request: FuzzRequest,
  model: ServiceModel,
  tokens: ReadonlyMap<string, Principal>,
): Expected {
  // RFC 3986: a percent-encoded unreserved character ("%2D" for "-") names the same path.
  const path = request.url.split('?')[0]!.replace(/%2D/gi, '-');
  const route = routes[`${request.method} ${path}` as keyof typeof routes];
  const other = otherRoute(request.method, path);
  if (other !== undefined) {
    const authorization = request.headers.authorization;
    const bearer = /^bearer(?: +|$)/i;
    if (authorization === undefined || !bearer.test(authorization))
      return other === 'public-read' ? { kind: 'loose' } : fail('unauthenticated');
    const principal = tokens.get(authorization.replace(bearer, '').trim());
    if (principal === undefined) return fail('invalid_token');
    if (other === 'withdraw') {
      if (!principal.admin) return fail('forbidden');
      const mealId = Number(path.slice(path.lastIndexOf('/') + 1));
      return { kind: 'loose', apply: () => model.withdrawn.add(mealId) };
    }
    return other === 'read' || other === 'public-read'
      ? { kind: 'loose' }
      : { kind: 'loose', apply: () => model.erase(principal.userId) };
  }
  // Fastify reads the body of a request before it finds that no route takes it: a bad body may answer first.
  if (route === undefined) {
    const parsed = request.body === undefined ? undefined : parseJsonBody(request.body);
    const prototypeKey = parsed !== undefined && !parsed.ok && parsed.code === 'invalid_request';
    return fail(
      'not_found',
      'invalid_json',
      'unsupported_media_type',
      'payload_too_large',
      ...(prototypeKey ? ['invalid_request' as const] : []),
    );
  }

  // Authentication comes before the body: an anonymous bad body gets 401. "Bearer" alone carries an empty token.
  const authorization = request.headers.authorization;
  const bearer = /^bearer(?: +|$)/i;
  if (authorization === undefined || !bearer.test(authorization)) return fail('unauthenticated');
  const principal = tokens.get(authorization.replace(bearer, '').trim());
  if (principal === undefined) return fail('invalid_token');
  if (route.name === 'admin' && !principal.admin) return fail('forbidden');

  const contentType = request.headers['content-type'];
  const bytes = request.body === undefined ? 0 : Buffer.byteLength(request.body);
  if (bytes === 0) {
    if (contentType === undefined) return fail('invalid_json', 'unsupported_media_type');
    return fail(isJsonMediaType(contentType) ? 'invalid_json' : 'unsupported_media_type');
  }
  if (contentType === undefined || !isJsonMediaType(contentType)) return fail('unsupported_media_type');
  if (bytes > route.bodyLimit) return fail('payload_too_large');
  const parsed = parseJsonBody(request.body!);
  if (!parsed.ok) return fail(parsed.code);
  // Validated with the body: no route takes a query parameter it does not name, and these routes name none.
  // As Fastify reads it: everything after the first "?", split on "&"; any non-empty piece is a parameter ("?" too).
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  if (query.split('&').some((piece) => piece !== '')) return fail('invalid_request');

  switch (route.name) {
    case 'rate': {
      if (!isRateBody(parsed.value)) return fail('invalid_request');
      const { meal_id: mealId, rating } = parsed.value;
      const refusal = model.ratingRefusal(mealId);
      if (refusal !== null) return fail(refusal);
      return {
        kind: 'success',
        data: preview(model, principal.userId, mealId, rating),
        apply: () => model.rate(principal.userId, mealId, rating),
      };
    }
    case 'mark': {
      if (!isMarkBody(parsed.value)) return fail('invalid_request');
      const { meal_id: mealId, marked } = parsed.value;
      if (!model.meals.has(mealId) || model.withdrawn.has(mealId)) return fail('meal_not_found');
      return { kind: 'success', data: { marked }, apply: () => model.mark(principal.userId, mealId, marked) };
    }
    case 'admin': {
      const meals = upsertMeals(parsed.value);
      if (meals === undefined) return fail('invalid_request');
      return {
        kind: 'success',
        data: { upserted: meals.length },
        apply: () =>
          meals.forEach(({ id, ...meal }) => {
            model.meals.set(id, meal);
            model.withdrawn.delete(id); // an upsert serves a withdrawn meal again
          }),
      };
    }
  }
}

/** The statistics a rating would answer, without changing the model (the answer decides whether it applies). */
function preview(model: ServiceModel, userId: string, mealId: number, rating: Rating | null): Statistics {
  const key = `${mealId}/${userId}`;
  const before = model.ratings.get(key);
  const statistics = model.rate(userId, mealId, rating);
  if (before === undefined) model.ratings.delete(key);
  else model.ratings.set(key, before);
  return statistics;
}

/** Media type `application/json`, any case, any parameters, surrounding whitespace ignored (RFC 9110 §8.3). */
export function isJsonMediaType(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * JSON as a careful server reads it: the text arrives as UTF-8 (so an unpaired surrogate becomes U+FFFD), one
 * leading byte order mark is ignored (RFC 8259 §8.1), and `__proto__` keys or `constructor.prototype` are refused.
 */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false; code: ErrorCode } {
  let value: unknown;
  try {
    value = JSON.parse(
      Buffer.from(text, 'utf8')
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  } catch {
    return { ok: false, code: 'invalid_json' };
  }
  // A key that could reach a prototype is an unknown field; a key repeated in one object is refused as JSON.
  if (hasPrototypeKey(value)) return { ok: false, code: 'invalid_request' };
  // Every string literal in turn (a quote outside one always opens the next); a key is one followed by a colon.
  const keysInText = [...text.matchAll(/"(?:[^"\\]|\\.)*"(\s*:)?/g)].filter(
    (literal) => literal[1] !== undefined,
  ).length;
  return keysInText === keyCount(value) ? { ok: true, value } : { ok: false, code: 'invalid_json' };
}

function hasPrototypeKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, '__proto__') || Object.hasOwn(value, 'constructor')) return true;
  return Object.values(value).some(hasPrototypeKey);
}

function keyCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const values = Object.values(value);
  return (Array.isArray(value) ? 0 : values.length) + values.reduce<number>((sum, inner) => sum + keyCount(inner), 0);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasExactly = (value: Record<string, unknown>, keys: readonly string[]) =>
  Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));
const isMealId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= Number.MAX_SAFE_INTEGER;

function isRateBody(value: unknown): value is { meal_id: number; rating: Rating | null } {
  return (
    isObject(value) &&
    hasExactly(value, ['meal_id', 'rating']) &&
    isMealId(value.meal_id) &&
    (value.rating === null ||
      (Number.isInteger(value.rating) && (value.rating as number) >= 1 && (value.rating as number) <= 5))
  );
}

function isMarkBody(value: unknown): value is { meal_id: number; marked: boolean } {
  return (
    isObject(value) &&
    hasExactly(value, ['meal_id', 'marked']) &&
    isMealId(value.meal_id) &&
    typeof value.marked === 'boolean'
  );
}

const dateTimeWithOffset = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** RFC 3339 date-time with an offset, a real calendar date and clock time (no leap second generated here). */
function isDateTime(value: unknown): value is string {
  const match = typeof value === 'string' ? dateTimeWithOffset.exec(value) : null;
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const offsetOk = match[9] === undefined || (Number(match[9]) <= 23 && Number(match[10]) <= 59);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetOk
  );
}

const codePoints = (text: string) => [...text].length;
const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const priceRoles: readonly string[] = ['student', 'employee', 'pupil', 'other'];

const bidiControl = /[\u202A-\u202E\u2066-\u2069]/;
// XML 1.0 forbids U+FFFE and U+FFFF (the other basic-plane noncharacters go with them), and a text of
// white space and zero-width characters shows nothing.
const nonCharacter = /[\uFDD0-\uFDEF\uFFFE\uFFFF]/;
const showsNothing = /^[\p{White_Space}\u00AD\u180E\u200B-\u200D\u2060-\u2064\uFEFF]*$/u;

/**
 * Meal text (name, category, note): 1 to 250 characters, not blank, no control character (C0, DEL, C1: NUL among
 * them), no bidirectional override or isolate, no noncharacter and not invisible, storable as
 * text: no unpaired surrogate.
 */
function isMealText(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    !bidiControl.test(value) &&
    !nonCharacter.test(value) &&
    !showsNothing.test(value) &&
    codePoints(value) >= 1 &&
    codePoints(value) <= 250 &&
    value.trim() !== '' &&
    ![...value].some(
      (character) =>
        character.codePointAt(0)! <= 0x1f || (character.codePointAt(0)! >= 0x7f && character.codePointAt(0)! <= 0x9f),
    ) &&
    !unpairedSurrogate.test(value)
  );
}

/** "02.60" -> "2.60", "3" -> "3.00", "2.6050" -> "2.605": the canonical euro amount the service stores. */
function canonicalAmount(amount: string): string {
  const [whole = '', fraction = ''] = amount.split('.');
  return `${whole.replace(/^0+(?=\d)/, '')}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

function pricesOf(value: unknown): ModelMeal['prices'] | undefined {
  if (value === undefined) return {};
  if (!isObject(value)) return undefined;
  const entries = Object.entries(value);
  if (
    !entries.every(
      ([role, amount]) =>
        priceRoles.includes(role) && typeof amount === 'string' && /^\d{1,7}(\.\d{1,6})?$/.test(amount),
    )
  ) {
    return undefined;
  }
  return Object.fromEntries(entries.map(([role, amount]) => [role as PriceRole, canonicalAmount(amount as string)]));
}

const mealInputKeys = ['meal_id', 'name', 'served_at', 'rateable', 'category', 'notes', 'prices'];

/** The meals of a valid upsert body, or undefined when the schema or the meal rules refuse it. */
function upsertMeals(value: unknown): ({ id: number } & ModelMeal)[] | undefined {
  if (!isObject(value) || !hasExactly(value, ['meals']) || !Array.isArray(value.meals)) return undefined;
  const { meals } = value;
  if (meals.length < 1 || meals.length > 1000) return undefined;
  const result: ({ id: number } & ModelMeal)[] = [];
  for (const meal of meals) {
    if (!isObject(meal) || !['meal_id', 'name', 'served_at', 'rateable'].every((key) => Object.hasOwn(meal, key)))
      return undefined;
    if (!Object.keys(meal).every((key) => mealInputKeys.includes(key))) return undefined;
    const { meal_id: id, name, served_at: servedAt, rateable, category = null, notes = [] } = meal;
    if (
      !isMealId(id) ||
      id > 2 ** 31 - 1 ||
      !isMealText(name) ||
      typeof rateable !== 'boolean' ||
      !isDateTime(servedAt)
    )
      return undefined;
    if (category !== null && !isMealText(category)) return undefined;
    if (!Array.isArray(notes) || notes.length > 100 || !notes.every(isMealText)) return undefined;
    const prices = pricesOf(meal.prices);
    if (prices === undefined) return undefined;
    if (result.some((earlier) => earlier.id === id)) return undefined;
    const instant = new Date(servedAt).getTime();
    if (Number.isNaN(instant)) return undefined;
    result.push({ id, name, servedAt: instant, rateable, category, notes, prices });
  }
  return result;
}
