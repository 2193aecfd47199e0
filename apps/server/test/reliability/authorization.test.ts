import { signHmacToken } from '@canteen-meals/adapters-http';
import fc from 'fast-check';
import { MealMother, probeThrough } from '@canteen-meals/repository-contract';
import { describe, expect, it, onTestFinished } from 'vitest';
import { reportFigures } from './support/figures.js';
import { buildInProcessApp } from './support/in-process-app.js';
import { craftToken, nowInSeconds } from './support/jwt-craft.js';

const secret = 'authorization-secret-that-is-at-least-32-bytes';
const now = Date.parse('2026-03-10T12:00:00Z');
const mealIds = [1, 2, 3] as const;
const menu = mealIds.map((id) => MealMother.servedHoursAgo(new Date(now), 1, { id }));
const users = ['alice', 'bob'] as const;
type User = (typeof users)[number];
const other = (user: User): User => (user === 'alice' ? 'bob' : 'alice');
const tokenOf = { alice: signHmacToken(secret, { sub: 'alice' }), bob: signHmacToken(secret, { sub: 'bob' }) };

/** How a request tries to act, and for whom the contract says it acts (or that it is refused). */
const impersonations = {
  /** The plain request: acts for the token's user. */
  none: 'acts',
  /** The other user named in the body: an unknown field, 400, nothing changes. */
  bodyField: 'invalid_request',
  /** In the query string: an unknown parameter, 400, nothing changes. */
  query: 'invalid_request',
  /** In a header: ignored, the request acts for the token's user. */
  header: 'acts',
  /** In the path: no such route. */
  path: 'not_found',
  /** A token that names the other user but is not validly signed by the service. */
  forgedToken: 'invalid_token',
} as const;
type Impersonation = keyof typeof impersonations;

interface Operation {
  readonly actor: User;
  readonly kind: 'rate' | 'mark';
  readonly mealId: number;
  readonly rating: 1 | 2 | 3 | 4 | 5 | null;
  readonly marked: boolean;
  readonly impersonation: Impersonation;
  readonly variant: number;
}

const operation: fc.Arbitrary<Operation> = fc.record({
  actor: fc.constantFrom(...users),
  kind: fc.constantFrom('rate', 'mark'),
  mealId: fc.constantFrom(...mealIds),
  rating: fc.constantFrom(1, 2, 3, 4, 5, null),
  marked: fc.boolean(),
  // Plain requests build up state for both users; every other one tries to reach the other user's.
  impersonation: fc.oneof(
    { weight: 5, arbitrary: fc.constant<Impersonation>('none') },
    { weight: 5, arbitrary: fc.constantFrom<Impersonation>('bodyField', 'query', 'header', 'path', 'forgedToken') },
  ),
  variant: fc.nat(3),
});

function forgedTokenFor(victim: User, variant: number, actor: User): string {
  const claims = { sub: victim, iat: nowInSeconds(), exp: nowInSeconds() + 3600 };
  const [header, , signature] = tokenOf[actor].split('.') as [string, string, string];
  switch (variant) {
    case 0:
      return signHmacToken('a-different-secret-that-is-at-least-32-bytes', { sub: victim });
    case 1:
      return craftToken({ alg: 'none', typ: 'JWT' }, claims, 'unsigned');
    case 2:
      // The actor's own valid signature over the victim's claims.
      return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    default:
      return craftToken({ alg: 'HS512', typ: 'JWT' }, claims, { secret, hmac: 'sha512' });
  }
}

/** The HTTP request for an operation, with the other user named wherever the impersonation puts it. */
function requestOf(op: Operation) {
  const victim = other(op.actor);
  const route = op.kind === 'rate' ? 'rate-meal' : 'mark-meal';
  const body: Record<string, unknown> =
    op.kind === 'rate' ? { meal_id: op.mealId, rating: op.rating } : { meal_id: op.mealId, marked: op.marked };
  const nameFields = ['user_id', 'sub', 'userId', 'user'];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${tokenOf[op.actor]}`,
  };
  let url = `/api/v1/${route}`;
  switch (op.impersonation) {
    case 'bodyField':
      body[nameFields[op.variant]!] = victim;
      break;
    case 'query':
      url += `?${nameFields[op.variant]}=${victim}`;
      break;
    case 'header':
      headers[['x-user-id', 'x-forwarded-user', 'x-auth-request-user', 'x-remote-user'][op.variant]!] = victim;
      break;
    case 'path':
      url = [
        `/api/v1/users/${victim}/${route}`,
        `/api/v1/${route}/${victim}`,
        `/api/v1/${victim}/${route}`,
        `/${victim}/api/v1/${route}`,
      ][op.variant]!;
      break;
    case 'forgedToken':
      headers.authorization = `Bearer ${forgedTokenFor(victim, op.variant, op.actor)}`;
      break;
    case 'none':
      break;
  }
  return { method: 'POST' as const, url, headers, payload: JSON.stringify(body) };
}

interface UserModel {
  readonly ratings: Map<number, 1 | 2 | 3 | 4 | 5>;
  readonly marked: Set<number>;
}

describe('authorization: two users interleaving, the user comes only from the verified token', () => {
  it(
    'keeps each user’s state equal to that user’s model, whatever the requests claim',
    { timeout: 120_000 },
    async () => {
      const figures = { runs: 0, requests: 0, impersonationAttempts: 0, refused: 0, actedForTokenUser: 0 };
      const { app, db, persistence, reset } = await buildInProcessApp({ secret, now, menu });
      onTestFinished(() => app.close());

      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 20, maxLength: 50 }), async (operations) => {
          await reset();
          figures.runs += 1;
          const model: Record<User, UserModel> = {
            alice: { ratings: new Map(), marked: new Set() },
            bob: { ratings: new Map(), marked: new Set() },
          };
          for (const op of operations) {
            const response = await app.inject(requestOf(op));
            figures.requests += 1;
            if (op.impersonation !== 'none') figures.impersonationAttempts += 1;
            const outcome = impersonations[op.impersonation];
            const where = JSON.stringify(op);
            if (outcome !== 'acts') {
              figures.refused += 1;
              expect(response.json(), where).toMatchObject({ status: 'error', error: { code: outcome } });
              continue;
            }
            expect(response.statusCode, `${where}: ${response.body}`).toBe(200);
            if (op.impersonation !== 'none') figures.actedForTokenUser += 1;
            const mine = model[op.actor];
            if (op.kind === 'mark') {
              if (op.marked) mine.marked.add(op.mealId);
              else mine.marked.delete(op.mealId);
              expect(response.json().data, where).toEqual({ marked: op.marked });
            } else {
              if (op.rating === null) mine.ratings.delete(op.mealId);
              else mine.ratings.set(op.mealId, op.rating);
              const count = users.filter((user) => model[user].ratings.has(op.mealId)).length;
              expect(response.json().data, where).toMatchObject({ rating_personal: op.rating, rating_count: count });
            }
          }
          for (const user of users) {
            for (const mealId of mealIds) {
              expect(
                await probeThrough(() => persistence.queries).rating(user, mealId),
                `${user} rating of ${mealId}`,
              ).toBe(model[user].ratings.get(mealId) ?? null);
              expect(
                await probeThrough(() => persistence.queries).marked(user, mealId),
                `${user} marking of ${mealId}`,
              ).toBe(model[user].marked.has(mealId));
            }
          }
          // Nobody else appears: no row for a user named by a body, a path, a query, a header or a forged token.
          const owners = db
            .prepare<[], { user_id: string }>('SELECT user_id FROM ratings UNION SELECT user_id FROM markings')
            .all();
          expect(owners.every((row) => (users as readonly string[]).includes(row.user_id))).toBe(true);
        }),
        { numRuns: 80 },
      );
      reportFigures('authorization', figures);
    },
  );
});
