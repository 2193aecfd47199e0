import type { Canteen } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffRouteAccess } from '../src/auth/route-access.js';
import { buildTestApp, now, type TestApp } from './app-fixture.js';

// For random grants and random requests on every admin and kitchen route, a request is allowed
// exactly when a grant covers it. The oracle below is written from the issue, not from the domain's policy.

const staffScopes = ['meals:write', 'meals:manage', 'meals:kitchen', 'meals:read-reports'] as const;
type Scope = (typeof staffScopes)[number];
const active = ['default', 'mensa-nord', 'mensa-sued'] as const;
type Active = (typeof active)[number];
/** One meal served today at each active canteen, and one withdrawn (which still belongs to its canteen). */
const mealOf: Record<Active, number> = { default: 1, 'mensa-nord': 11, 'mensa-sued': 21 };
const withdrawnOf: Record<Active, number> = { default: 2, 'mensa-nord': 12, 'mensa-sued': 22 };
const canteenOfMeal = new Map(
  active.flatMap((canteen) => [
    [mealOf[canteen], canteen],
    [withdrawnOf[canteen], canteen],
  ]),
);

/** What a held scope allows, as the issue says: meals:write everything, meals:manage the kitchen's and the reports'. */
const covers = (held: Scope, needed: Scope) =>
  held === needed ||
  held === 'meals:write' ||
  (held === 'meals:manage' && (needed === 'meals:kitchen' || needed === 'meals:read-reports'));

interface Grant {
  readonly scope: Scope;
  /** null: every canteen; `ghost` does not exist. */
  readonly canteen: Active | 'ghost' | null;
}

const grantText = ({ scope, canteen }: Grant) => (canteen === null ? scope : `${scope}@${canteen}`);

/** A request, the scope it needs and the canteens it touches (`every`: only a grant for every canteen allows it). */
interface StaffRequest {
  readonly operationId: string;
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  readonly url: string;
  readonly body?: unknown;
  readonly needs: Scope;
  readonly touches: readonly string[] | 'every' | 'somewhere';
}

const canteen = fc.constantFrom(...active);
const mealId = fc.constantFrom(...active.flatMap((each) => [mealOf[each], withdrawnOf[each]]));
const servedMealId = fc.constantFrom(...active.map((each) => mealOf[each]));
const details = { name: 'Mensa', timezone: 'Europe/Berlin' };
const hook = { url: 'https://app.example.com/hooks/meals', events: ['menu.published'] };

const requests: fc.Arbitrary<StaffRequest>[] = [
  canteen.map((id) => ({
    operationId: 'saveCanteen',
    method: 'PUT',
    url: `/api/v1/admin/canteens/${id}`,
    body: details,
    needs: 'meals:manage',
    touches: [id],
  })),
  // An archived canteen: restoring it needs meals:write there; a new one meals:write for every canteen.
  fc.constant<StaffRequest>({
    operationId: 'saveCanteen',
    method: 'PUT',
    url: '/api/v1/admin/canteens/mensa-alt',
    body: details,
    needs: 'meals:write',
    touches: ['mensa-alt'],
  }),
  fc.constant<StaffRequest>({
    operationId: 'saveCanteen',
    method: 'PUT',
    url: '/api/v1/admin/canteens/ghost',
    body: details,
    needs: 'meals:write',
    touches: 'every',
  }),
  canteen.map((id) => ({
    operationId: 'archiveCanteen',
    method: 'DELETE',
    url: `/api/v1/admin/canteens/${id}`,
    needs: 'meals:write',
    touches: [id],
  })),
  fc.constant<StaffRequest>({
    operationId: 'listAdminCanteens',
    method: 'GET',
    url: '/api/v1/admin/canteens',
    needs: 'meals:manage',
    touches: 'somewhere',
  }),
  canteen.map((id) => ({
    operationId: 'listFeeds',
    method: 'GET',
    url: `/api/v1/admin/canteens/${id}/feeds`,
    needs: 'meals:manage',
    touches: [id],
  })),
  canteen.map((id) => ({
    operationId: 'fetchFeed',
    method: 'POST',
    url: `/api/v1/admin/canteens/${id}/feeds/main/fetch`,
    body: {},
    needs: 'meals:manage',
    touches: [id],
  })),
  canteen.map((id) => ({
    operationId: 'setDayClosed',
    method: 'PUT',
    url: `/api/v1/admin/canteens/${id}/days/2026-04-01`,
    body: { closed: true },
    needs: 'meals:manage',
    touches: [id],
  })),
  // A batch: new meals at some canteens, and perhaps an existing meal moved to another canteen.
  fc
    .record({
      at: fc.uniqueArray(canteen, { minLength: 1, maxLength: 3 }),
      moved: fc.option(fc.tuple(mealId, canteen), { nil: undefined }),
    })
    .map(({ at, moved }) => {
      const meals = at.map((id, index) =>
        MealMother.servedTomorrow(now, { id: 100 + index, name: `New ${index}`, canteenId: id }),
      );
      if (moved !== undefined) {
        meals.push(MealMother.servedToday(now, { id: moved[0], name: 'Moved', canteenId: moved[1] }));
      }
      const touched = new Set<string>(at);
      if (moved !== undefined) touched.add(moved[1]).add(canteenOfMeal.get(moved[0])!);
      return {
        operationId: 'upsertMeals',
        method: 'PUT' as const,
        url: '/api/v1/admin/meals',
        body: MealMother.upsertBody(...meals),
        needs: 'meals:manage' as const,
        touches: [...touched],
      };
    }),
  mealId.map((id) => ({
    operationId: 'withdrawMeal',
    method: 'DELETE',
    url: `/api/v1/admin/meals/${id}`,
    needs: 'meals:manage',
    touches: [canteenOfMeal.get(id)!],
  })),
  // Dish ids are the meals' dishes' (filled in when sent): of one canteen or of two.
  fc
    .tuple(servedMealId, servedMealId)
    .filter(([a, b]) => a !== b)
    .map(([target, from]) => ({
      operationId: 'mergeDishes',
      method: 'POST',
      url: `dish-of:${target}`,
      body: { fromMeal: from },
      needs: 'meals:manage',
      touches: [...new Set([canteenOfMeal.get(target)!, canteenOfMeal.get(from)!])],
    })),
  mealId.map((id) => ({
    operationId: 'setMealAvailability',
    method: 'PUT',
    url: `/api/v1/kitchen/meals/${id}/availability`,
    body: { status: 'sold_out' },
    needs: 'meals:kitchen',
    touches: [canteenOfMeal.get(id)!],
  })),
  canteen.map((id) => ({
    operationId: 'getRatingsReport',
    method: 'GET',
    url: `/api/v1/admin/reports/ratings.csv?canteen=${id}&from=2026-03-01&to=2026-03-10`,
    needs: 'meals:read-reports',
    touches: [id],
  })),
  // The audit trail: a manager's own canteens (the route cuts the list), meals:write all.
  fc.constant<StaffRequest>({
    operationId: 'listAuditEntries',
    method: 'GET',
    url: '/api/v1/admin/audit',
    needs: 'meals:manage',
    touches: 'somewhere',
  }),
  fc.constant<StaffRequest>({
    operationId: 'exportAuditEntries',
    method: 'GET',
    url: '/api/v1/admin/audit/export',
    needs: 'meals:manage',
    touches: 'somewhere',
  }),
  ...(
    [
      ['saveWebhook', 'PUT', '/api/v1/admin/webhooks/app', hook],
      ['listWebhooks', 'GET', '/api/v1/admin/webhooks', undefined],
      ['getWebhook', 'GET', '/api/v1/admin/webhooks/app', undefined],
      ['deleteWebhook', 'DELETE', '/api/v1/admin/webhooks/app', undefined],
      ['listDeliveries', 'GET', '/api/v1/admin/webhooks/app/deliveries', undefined],
    ] as const
  ).map(([operationId, method, url, body]) =>
    fc.constant<StaffRequest>({
      operationId,
      method,
      url,
      ...(body === undefined ? {} : { body }),
      needs: 'meals:write',
      touches: 'every',
    }),
  ),
];

/** The oracle: allowed exactly when, for every canteen touched, a grant for it or for every canteen covers the need. */
function allowed(grants: readonly Grant[], request: StaffRequest): boolean {
  const coveredAt = (id: string | null) =>
    grants.some((grant) => (grant.canteen === null || grant.canteen === id) && covers(grant.scope, request.needs));
  if (request.touches === 'every') return coveredAt(null);
  if (request.touches === 'somewhere') return grants.some((grant) => covers(grant.scope, request.needs));
  return request.touches.every((id) => coveredAt(id));
}

let fixture: TestApp;
beforeAll(async () => {
  fixture = await buildTestApp();
});
afterAll(() => fixture.app.close());

const canteenRecord = (id: string): Canteen => ({
  id,
  name: id,
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
});

/** The same world before every request: three canteens with a meal today each, and one archived canteen. */
async function resetWorld(): Promise<void> {
  const { db } = fixture.adapters;
  for (const table of [
    db.meals,
    db.histograms,
    db.ratings,
    db.markings,
    db.dishes,
    db.dishNames,
    db.mealDishes,
    db.withdrawn,
    db.closedDays,
    db.availability,
    db.webhooks,
    db.deliveries,
  ]) {
    table.clear();
  }
  for (const id of db.canteens.keys()) if (id !== 'default') db.canteens.delete(id);
  db.canteenArchivedAt.clear();
  for (const id of ['mensa-nord', 'mensa-sued', 'mensa-alt']) await fixture.adapters.canteens.save(canteenRecord(id));
  await fixture.adapters.canteens.archive('mensa-alt', now);
  await fixture.adapters.meals.upsertMany(
    active.flatMap((id) => [
      MealMother.servedToday(now, { id: mealOf[id], name: `Dish of ${id}`, canteenId: id }),
      MealMother.servedToday(now, { id: withdrawnOf[id], name: `Withdrawn of ${id}`, canteenId: id }),
    ]),
  );
  for (const id of active) await fixture.adapters.meals.withdraw(withdrawnOf[id], now);
  fixture.clock.set(now);
}

async function send(request: StaffRequest, grants: readonly Grant[]) {
  const token = fixture.token({ sub: 'staff', scope: ['openid', ...grants.map(grantText)].join(' ') });
  let { url, body } = request;
  if (url.startsWith('dish-of:')) {
    const dishOf = async (id: number) =>
      (await fixture.app.inject({ method: 'GET', url: `/api/v1/meals/${id}` })).json().data.dish.dish_id as number;
    url = `/api/v1/admin/dishes/${await dishOf(Number(url.slice('dish-of:'.length)))}/merge`;
    body = { from: [await dishOf((body as { fromMeal: number }).fromMeal)] };
  }
  return fixture.app.inject({
    method: request.method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

const grant: fc.Arbitrary<Grant> = fc.record({
  scope: fc.constantFrom(...staffScopes),
  canteen: fc.constantFrom<Grant['canteen']>(null, ...active, 'ghost'),
});

describe('staff access: random grants x random requests on every admin and kitchen route', () => {
  it('covers every staff route', () => {
    const exercised = new Set<string>();
    fc.assert(
      fc.property(fc.oneof(...requests), (request) => {
        exercised.add(request.operationId);
      }),
      { numRuns: 2000 },
    );
    expect([...exercised].sort()).toEqual(Object.keys(staffRouteAccess).sort());
  });

  it('allows a request exactly when a grant covers it; a refusal is 403 forbidden naming the scope', async () => {
    const figures = { requests: 0, allowed: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(grant, { maxLength: 4 }),
        fc.array(fc.oneof(...requests), { minLength: 1, maxLength: 6 }),
        async (grants, batch) => {
          for (const request of batch) {
            await resetWorld();
            const response = await send(request, grants);
            const where = `${JSON.stringify(grants.map(grantText))} ${request.method} ${request.url}: ${response.body}`;
            figures.requests += 1;
            if (allowed(grants, request)) {
              figures.allowed += 1;
              expect(response.statusCode, where).not.toBe(403);
              expect(response.statusCode, where).toBeLessThan(500);
            } else {
              figures.refused += 1;
              expect(response.statusCode, where).toBe(403);
              expect(response.json().error.code, where).toBe('forbidden');
              expect(response.json().error.message, where).toMatch(/meals:/);
            }
            if (request.operationId === 'listAdminCanteens' && response.statusCode === 200) {
              const listed = response.json().data.canteens.map((each: { canteen_id: string }) => each.canteen_id);
              const expected = ['default', 'mensa-alt', 'mensa-nord', 'mensa-sued'].filter((id) =>
                allowed(grants, { ...request, touches: [id] }),
              );
              expect(listed, where).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
    console.log(`staff access: ${figures.requests} requests, ${figures.allowed} allowed, ${figures.refused} refused`);
    expect(figures.allowed).toBeGreaterThan(20);
    expect(figures.refused).toBeGreaterThan(20);
  }, 120_000);
});
