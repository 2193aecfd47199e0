import fc from 'fast-check';
import { signHmacToken } from '@canteen-meals/adapters-http';
import type { FuzzRequest, Principal } from './contract-oracle.js';
import { craftToken, nowInSeconds } from './jwt-craft.js';

/** Generators of requests for the fuzz test: mostly near the contract, where bugs hide, and some pure noise. */

export const fuzzSecret = 'fuzz-secret-that-is-at-least-32-bytes-long';
export const otherSecret = 'another-secret-that-is-at-least-32-bytes!';

/** Subjects with unicode, paired surrogates and the maximum length: all valid `sub` values. */
export const fuzzUsers = ['alice', 'bob', 'Zoë-ünïcödé', '用户-😀', 's'.repeat(255)] as const;

/** Every token the service must accept, and whom it names. Any other string is an invalid token. */
export function validTokens(): Map<string, Principal> {
  const tokens = new Map<string, Principal>();
  for (const userId of fuzzUsers) {
    tokens.set(signHmacToken(fuzzSecret, { sub: userId }), { userId, admin: false });
    tokens.set(signHmacToken(fuzzSecret, { sub: userId, scope: 'meals:write' }), { userId, admin: true });
    tokens.set(signHmacToken(fuzzSecret, { sub: userId, scope: 'openid meals:write profile' }), {
      userId,
      admin: true,
    });
    tokens.set(signHmacToken(fuzzSecret, { sub: userId, scope: 'MEALS:WRITE meals:read' }), { userId, admin: false });
  }
  return tokens;
}

/** Tokens that must all be refused with invalid_token: bad signatures, algorithms, claims, structure. */
export function invalidTokens(): string[] {
  const now = nowInSeconds();
  const hs256 = { secret: fuzzSecret, hmac: 'sha256' } as const;
  const claims = (extra: Record<string, unknown>) => ({ sub: 'alice', iat: now, exp: now + 3600, ...extra });
  const valid = signHmacToken(fuzzSecret, { sub: 'alice' });
  const [header, payload, signature] = valid.split('.') as [string, string, string];
  const bobPayload = signHmacToken(fuzzSecret, { sub: 'bob' }).split('.')[1]!;
  return [
    signHmacToken(otherSecret, { sub: 'alice' }),
    craftToken({ alg: 'none', typ: 'JWT' }, claims({}), 'unsigned'),
    craftToken({ alg: 'HS512', typ: 'JWT' }, claims({}), { secret: fuzzSecret, hmac: 'sha512' }),
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ exp: now - 3600 }), hs256),
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ nbf: now + 3600 }), hs256),
    craftToken({ alg: 'HS256', typ: 'JWT' }, { sub: 'alice', iat: now }, hs256),
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ sub: undefined }), hs256),
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ sub: '' }), hs256),
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ sub: 42 }), hs256),
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ sub: ['alice'] }), hs256),
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ sub: 's'.repeat(256) }), hs256),
    // No adapter can store these as text (PostgreSQL refuses both), so they cannot name a user.
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ sub: 'nul\u0000byte' }), hs256),
    craftToken({ alg: 'HS256', typ: 'JWT' }, claims({ sub: 'lone\ud800surrogate' }), hs256),
    craftToken({ alg: 'HS256', typ: 'JWT', crit: ['exp'] }, claims({}), hs256),
    `${header}.${bobPayload}.${signature}`, // bob's claims under alice's signature
    `${header}.${payload}.${signature.slice(0, -2)}`,
    `${header}.${payload}`,
    `${header}.${payload}.${signature}.${signature}`,
    valid.slice(0, valid.length / 2),
    'not-a-token',
    '...',
  ];
}

const routePaths = ['/api/v1/rate-meal', '/api/v1/mark-meal', '/api/v1/admin/meals'] as const;

/** Meal ids: the menu's, a new one now and then, and edge values. */
const mealId = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(1, 2, 3, 4, 5) },
  { weight: 1, arbitrary: fc.integer({ min: 6, max: 2 ** 31 - 1 }) },
  { weight: 1, arbitrary: fc.constant(Number.MAX_SAFE_INTEGER) },
);

/** JSON literals as text, so that a body can hold what JSON.stringify never writes. */
const oddLiteral = fc.constantFrom(
  '1.0',
  '1e0',
  '0.3e1',
  '5.000',
  '1e400',
  '-1e400',
  '-0',
  '0',
  '-1',
  '6',
  '2.5',
  '9007199254740993',
  '9007199254740991',
  '"3"',
  '"1"',
  'true',
  'false',
  'null',
  '[]',
  '{}',
  '[3]',
  '{"$numberInt":"3"}',
  '"\\u0033"',
  '01',
  '+1',
  'NaN',
  'Infinity',
  '0x1',
  "'3'",
  '3,',
  '',
);

const unicodeText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', 'Ramen 🍜', 'e\u0301', '\u202Eevil', '\uFEFF', '\\ud800', '\ud800', '\u2028'),
);

/** Extra keys that try to name someone or poison a prototype. */
const extraKey = fc.oneof(
  fc.constantFrom(
    'user_id',
    'userId',
    'sub',
    'user',
    '__proto__',
    'constructor',
    'prototype',
    '\\u005f_proto__',
    'meal_id ',
    'Rating',
  ),
  fc.string({ maxLength: 8 }),
);

const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value) ?? 'null'),
  oddLiteral,
  unicodeText.map((text) => JSON.stringify(text)),
);

function objectText(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, value]) => `${key.startsWith('"') ? key : JSON.stringify(key)}:${value}`).join(',')}}`;
}

/** A body for one route, from valid through slightly wrong to noise. */
function bodyFor(fields: readonly [string, fc.Arbitrary<string>][]): fc.Arbitrary<string | undefined> {
  const valid = fc
    .tuple(...fields.map(([, value]) => value))
    .map((values) => fields.map(([key], index) => [key, values[index]!] as const));
  return fc.oneof(
    { weight: 20, arbitrary: valid.map(objectText) },
    // One field of the wrong type or out of range.
    {
      weight: 4,
      arbitrary: fc
        .tuple(valid, fc.nat(fields.length - 1), oddLiteral)
        .map(([entries, index, literal]) =>
          objectText(entries.map(([key, value], at) => [key, at === index ? literal : value] as const)),
        ),
    },
    // A field missing, or one too many (with the escaped key spelled as is, so "\u005f_proto__" stays escaped).
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.nat(fields.length - 1))
        .map(([entries, index]) => objectText(entries.filter((_, at) => at !== index))),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, extraKey, jsonish)
        .map(([entries, key, value]) =>
          objectText([...entries, [key.includes('\\') ? `"${key}"` : key, value] as const]),
        ),
    },
    // Prototype pollution in the classic shapes.
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.constantFrom(
            '{"__proto__":{"admin":true}}',
            '{"constructor":{"prototype":{"admin":true}}}',
            '{"prototype":{}}',
          ),
        )
        .map(([entries, poison]) => `${objectText(entries).slice(0, -1)},"nested":${poison}}`),
    },
    {
      weight: 1,
      arbitrary: valid.map((entries) => `{"__proto__":{"rating":5},${objectText(entries).slice(1)}`),
    },
    // Broken JSON: cut short, wrapped, with a BOM, padded past the limit, or nothing at all.
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.nat())
        .map(([entries, cut]) => objectText(entries).slice(0, cut % objectText(entries).length)),
    },
    { weight: 1, arbitrary: valid.map((entries) => `[${objectText(entries)}]`) },
    { weight: 1, arbitrary: valid.map((entries) => `\uFEFF${objectText(entries)}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.integer({ min: 900, max: 1100 }))
        .map(([entries, pad]) => objectText(entries) + ' '.repeat(pad)),
    },
    { weight: 1, arbitrary: fc.constantFrom(undefined, '', ' ', 'null', '[]', '""', '{', '}', '{"a":1}{"b":2}') },
    { weight: 2, arbitrary: fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 60 })) },
  );
}

const ratingLiteral = fc.constantFrom('1', '2', '3', '4', '5', 'null');
const rateBody = bodyFor([
  ['meal_id', mealId.map(String)],
  ['rating', ratingLiteral],
]);
const markBody = bodyFor([
  ['meal_id', mealId.map(String)],
  ['marked', fc.constantFrom('true', 'false')],
]);

const hour = 3_600_000;

/** RFC 3339 with a chosen offset, as a client in another time zone would write it. */
function withOffset(instant: number, offsetMinutes: number, fraction: boolean, lowercase: boolean): string {
  const local = new Date(instant + offsetMinutes * 60_000).toISOString().slice(0, fraction ? 23 : 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset =
    offsetMinutes === 0 && !fraction
      ? 'Z'
      : `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  const text = `${local}${offset}`;
  return lowercase ? text.replace('T', 't').replace('Z', 'z') : text;
}

function servedAt(now: number) {
  const week = 7 * 24 * hour;
  const instant = fc.oneof(
    fc.integer({ min: now - 10 * 24 * hour, max: now + 2 * 24 * hour }),
    fc.constantFrom(now, now + 1, now - week, now - week - 1, now - week + 1),
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(instant, fc.constantFrom(0, 60, -300, 330, 840, -720), fc.boolean(), fc.boolean())
        .map(([at, offset, fraction, lower]) => withOffset(at, offset, fraction, lower)),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '2026-03-10T12:00:00',
        '2026-03-10 12:00:00Z',
        '2026-02-30T12:00:00Z',
        '2026-13-01T00:00:00Z',
        '2026-03-10T24:00:00Z',
        '2026-03-10T12:00:00+0100',
        '2026-03-10T12:00:00+24:00',
        '',
        'yesterday',
        '2026-03-10',
      ),
    },
  );
}

const mealName = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: unicodeText },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'a'.repeat(250),
      'a'.repeat(251),
      '😀'.repeat(250),
      '😀'.repeat(251),
      '   ',
      'tab\there',
      'C1\u0085here',
      'Fish & chips',
    ),
  },
);

function adminBody(now: number): fc.Arbitrary<string | undefined> {
  const text = fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) },
    { weight: 1, arbitrary: unicodeText },
  );
  const meal = fc.record(
    {
      meal_id: fc.oneof(
        fc.constantFrom(1, 2, 3, 4, 5, 6, 7),
        fc.constantFrom(2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER),
      ),
      name: mealName,
      served_at: servedAt(now),
      rateable: fc.boolean(),
      category: fc.option(text, { nil: null }),
      notes: fc.array(text, { maxLength: 3 }),
      prices: fc.dictionary(
        fc.constantFrom('student', 'employee', 'pupil', 'other', 'guest'),
        fc.constantFrom<unknown>(
          '2.60',
          '0.50',
          '3',
          '02.60',
          '2.6050',
          '1234567.123456',
          '12345678',
          '2.6.0',
          '-1',
          '',
          ' 2.60',
          2.6,
          null,
        ),
        { maxKeys: 2 },
      ),
    },
    { requiredKeys: ['meal_id', 'name', 'served_at', 'rateable'] },
  );
  const valid = fc.array(meal, { minLength: 1, maxLength: 3 }).map((meals) => JSON.stringify({ meals }));
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 1, arbitrary: fc.constantFrom('{"meals":[]}', '{"meals":{}}', '{"meals":[{"meal_id":9}]}', '{}', '[]') },
    {
      weight: 2,
      arbitrary: fc
        .tuple(meal, fc.constantFrom('meal_id', 'name', 'served_at', 'rateable'), oddLiteral)
        .map(([one, field, literal]) =>
          JSON.stringify({ meals: [one] }).replace(new RegExp(`"${field}":("[^"]*"|[^,}]*)`), `"${field}":${literal}`),
        ),
    },
    { weight: 1, arbitrary: bodyFor([['meals', fc.constant('[]')]]) },
  );
}

const contentType = fc.oneof(
  { weight: 30, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;',
      ' application/json',
      'application/json\t',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/jsonx',
      'application/json-patch+json',
      'application/vnd.api+json',
      'application/json, text/plain',
      '',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20, unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz/;=+-. ') }) },
);

function authorization(valid: readonly string[], invalid: readonly string[]): fc.Arbitrary<string | undefined> {
  const token = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...valid) },
    { weight: 2, arbitrary: fc.constantFrom(...invalid) },
  );
  return fc.oneof(
    { weight: 30, arbitrary: token.map((t) => `Bearer ${t}`) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom('bearer ', 'BEARER   ', 'Bearer  '), token).map(([scheme, t]) => scheme + t),
    },
    { weight: 2, arbitrary: token.map((t) => t) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'Bearer',
        'Basic YWxpY2U6c2VjcmV0',
        'Token abc',
        'Bearer null',
        'Bearer undefined',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40, unit: fc.constantFrom(...'Bearer abcXYZ012.-_=') }) },
  );
}

/** Headers that try to say who the user is, or add noise. */
const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'x-user-id',
    'x-forwarded-user',
    'x-forwarded-for',
    'cookie',
    'x-request-id',
    'x-http-method-override',
    'accept',
    'x-noise',
  ),
  fc.constantFrom('bob', 'alice', 'admin', '127.0.0.1', 'sub=bob', 'PUT', 'text/html', '*/*', 'x'.repeat(300)),
  { maxKeys: 2 },
);

const query = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('?user_id=bob', '?sub=bob&meal_id=2', '?rating=5', '?__proto__[admin]=1', '?a=1&a=2'),
  },
  { weight: 1, arbitrary: fc.webQueryParameters().map((q) => `?${q}`) },
);

const route = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ method: 'POST', path: '/api/v1/rate-meal' }) },
  { weight: 6, arbitrary: fc.constant({ method: 'POST', path: '/api/v1/mark-meal' }) },
  { weight: 5, arbitrary: fc.constant({ method: 'PUT', path: '/api/v1/admin/meals' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { method: 'POST', path: '/api/v1/rate%2Dmeal' },
      { method: 'POST', path: '/api/v1/rate%2dmeal' },
    ),
  },
  // The read side and the erasure of one's own data, so that they too meet every header and token.
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...[
        '/api/v1/meals/1',
        '/api/v1/meals/99',
        '/api/v1/meals/0',
        '/api/v1/meals/abc',
        '/api/v1/meals?ids=1,2',
        '/api/v1/meals',
        '/api/v1/marked-meals?limit=2',
        '/api/v1/rated-meals?cursor=bogus',
        '/api/v1/me/data',
      ].map((path) => ({ method: 'GET', path })),
      { method: 'DELETE', path: '/api/v1/me/data' },
    ),
  },
  // Wrong methods, near-miss and unknown paths, and paths that try to name a user.
  {
    weight: 2,
    arbitrary: fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      path: fc.oneof(
        fc.constantFrom(...routePaths),
        // Not /api/v2: that is OpenMensa's API, whose unknown resources answer 404 with an empty body (its own tests).
        // Not `/` either: the students' app's page (HTML) is there since issue 40.
        fc.constantFrom(
          '/api/v1/rate-meal/',
          '/api/v1//rate-meal',
          '/API/V1/RATE-MEAL',
          '/api/v3/rate-meal',
          '/api/v1/users/bob/rate-meal',
          '/api/v1/rate-meal/bob',
          '/api/v1/admin/meals/1',
          '/api',
          '/api/v1',
          '/api/v1/',
          '/rate-meal',
        ),
        fc
          .array(
            fc.string({
              minLength: 1,
              maxLength: 8,
              unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'),
            }),
            { minLength: 1, maxLength: 4 },
          )
          .map((segments) => `/api/v1/${segments.join('/')}`),
      ),
    }),
  },
);

export function fuzzRequest(
  now: number,
  valid: readonly string[],
  invalid: readonly string[],
): fc.Arbitrary<FuzzRequest> {
  const bodies = {
    '/api/v1/rate-meal': rateBody,
    '/api/v1/mark-meal': markBody,
    '/api/v1/admin/meals': adminBody(now),
  };
  return fc
    .tuple(route, query, authorization(valid, invalid), contentType, extraHeaders)
    .chain(([{ method, path }, search, auth, type, extra]) => {
      const decoded = path.replace(/%2D/gi, '-') as keyof typeof bodies;
      const body =
        bodies[decoded] ??
        fc.oneof({ weight: 1, arbitrary: rateBody }, { weight: 3, arbitrary: fc.constant(undefined) });
      return body.map((text) => ({
        method,
        url: `${path}${search}`,
        headers: {
          ...extra,
          ...(auth === undefined ? {} : { authorization: auth }),
          ...(type === undefined ? {} : { 'content-type': type }),
        },
        body: text,
      }));
    });
}
