import { FixedClock } from '@canteen-meals/adapters-memory';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/composition-root.js';
import { loadConfig } from '../../src/config.js';

const secret = 'audit-scenario-secret-of-at-least-32-bytes';
const token = (sub: string, scope: string) => signHmacToken(secret, { sub, scope, expiresInMs: 3_600_000 });
const admin = token('ada', 'meals:write');
const manager = token('maria', 'meals:manage@nord');
const kitchen = token('kim', 'meals:kitchen@nord');
/** Tuesday 2026-03-10, 11:40 in Berlin: the meals are served today at 12:30. */
const now = new Date('2026-03-10T10:40:00.000Z');
const lunch = new Date('2026-03-10T11:30:00.000Z');

/**
 * Every staff change of issue 43 through the whole service on one database, each made by the person whose scope
 * allows it, then read back from the audit trail with who and what: the list (newest first, filtered, paged), a
 * manager's view of their canteen only, and the CSV export.
 */
export function describeAuditThroughTheService(storage: string, databaseUrl: () => string): void {
  describe(`the audit trail through the service on ${storage}`, () => {
    let server: Awaited<ReturnType<typeof buildServer>>;
    let feedHost: Server;
    let base: string;
    let feedUrl: string;
    let mergedInto: number;
    const refusals: number[] = [];

    async function call(method: string, path: string, bearer: string, body?: unknown) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const type = response.headers.get('content-type') ?? '';
      return { status: response.status, type, text, body: type.includes('json') ? JSON.parse(text) : undefined };
    }
    async function ok(method: string, path: string, bearer: string, body?: unknown) {
      const answer = await call(method, path, bearer, body);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
      return answer.body;
    }
    const canteen = (name: string, feeds: unknown[] = []) => ({ name, timezone: 'Europe/Berlin', feeds });

    beforeAll(async () => {
      // A feed host that has nothing: a fetch by hand fails, and is recorded all the same.
      feedHost = createServer((_request, response) => response.writeHead(404).end());
      await new Promise<void>((resolve) => feedHost.listen(0, '127.0.0.1', resolve));
      feedUrl = `http://127.0.0.1:${(feedHost.address() as AddressInfo).port}/nord.xml`;
      const config = loadConfig({
        DATABASE_URL: databaseUrl(),
        JWT_SECRET: secret,
        LOG_LEVEL: 'silent',
        TZ_NAME: 'Europe/Berlin',
        POSTGRES_POOL_SIZE: '3',
        OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
        FEED_CHECK_INTERVAL_S: '0',
        FEED_RETRY_BASE_MS: '0',
        RATE_LIMIT_USER_PER_MIN: '0',
        RATE_LIMIT_IP_PER_MIN: '0',
        WEBHOOK_POLL_MS: '0',
      });
      server = await buildServer(config, { clock: new FixedClock(now) });
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;

      await ok('PUT', '/api/v1/admin/canteens/nord', admin, canteen('Mensa Nord'));
      await ok('PUT', '/api/v1/admin/canteens/sued', admin, canteen('Mensa Süd'));
      await ok(
        'PUT',
        '/api/v1/admin/canteens/nord',
        manager,
        canteen('Mensa Nord am Campus', [{ name: 'full', url: feedUrl, schedule: '0 6 * * *' }]),
      );
      await ok('POST', '/api/v1/admin/canteens/nord/feeds/full/fetch', manager);
      await ok(
        'PUT',
        '/api/v1/admin/meals',
        manager,
        MealMother.upsertBody(
          MealMother.servedAt(lunch, { id: 1, name: 'Chili', canteenId: 'nord' }),
          MealMother.servedAt(lunch, { id: 2, name: 'Chili scharf', canteenId: 'nord' }),
        ),
      );
      await ok('PUT', '/api/v1/kitchen/meals/1/availability', kitchen, { status: 'sold_out' });
      await ok('PUT', '/api/v1/admin/canteens/nord/days/2026-03-12', manager, { closed: true });
      await ok('PUT', '/api/v1/admin/canteens/nord/days/2026-03-12', manager, { closed: false });
      const dishOf = async (mealId: number) => (await ok('GET', `/api/v1/meals/${mealId}`, admin)).data.dish.dish_id;
      const [target, source] = [await dishOf(1), await dishOf(2)];
      mergedInto = target;
      await ok('POST', `/api/v1/admin/dishes/${target}/merge`, admin, { from: [source] });
      await ok('DELETE', '/api/v1/admin/meals/2', manager);
      // Refused: outside the grant (a kitchen at another canteen's meal, a manager at another canteen's menu and at the
      // webhooks): nothing changes, so nothing is recorded.
      await ok(
        'PUT',
        '/api/v1/admin/meals',
        admin,
        MealMother.upsertBody(MealMother.servedAt(lunch, { id: 3, name: 'Suppe', canteenId: 'sued' })),
      );
      refusals.push(
        (await call('PUT', '/api/v1/kitchen/meals/3/availability', kitchen, { status: 'sold_out' })).status,
        (
          await call(
            'PUT',
            '/api/v1/admin/meals',
            manager,
            MealMother.upsertBody(MealMother.servedAt(lunch, { id: 3, name: 'Suppe', canteenId: 'sued' })),
          )
        ).status,
        (
          await call('PUT', '/api/v1/admin/webhooks/ops', manager, {
            url: 'https://receiver.example/hooks',
            events: ['menu.published'],
          })
        ).status,
      );
      await ok('PUT', '/api/v1/admin/webhooks/ops', admin, {
        url: 'https://receiver.example/hooks',
        events: ['menu.published'],
      });
      await ok('PUT', '/api/v1/admin/webhooks/ops', admin, {
        url: 'https://receiver.example/hooks',
        events: ['menu.published', 'meal.withdrawn'],
      });
      await ok('DELETE', '/api/v1/admin/webhooks/ops', admin);
      await ok('DELETE', '/api/v1/admin/canteens/sued', admin);
      await ok('PUT', '/api/v1/admin/canteens/sued', admin, canteen('Mensa Süd'));
    });
    afterAll(async () => {
      await server?.app.close();
      await server?.persistence.close();
      feedHost?.closeAllConnections();
      await new Promise((resolve) => feedHost?.close(resolve));
    });

    const trail = async (query: string, bearer = admin) =>
      (await ok('GET', `/api/v1/admin/audit${query}`, bearer)).data;

    it('holds every change with who made it, with which scopes, through which request, and what changed', async () => {
      const { entries, next_cursor } = await trail('?limit=100');
      expect(next_cursor).toBeNull();
      const seen = [...entries].reverse().map((entry: any) => `${entry.actor} ${entry.action} ${entry.target}`);
      expect(seen).toEqual([
        'ada canteen.created nord',
        'ada canteen.created sued',
        'maria canteen.edited nord',
        'maria feed.added feed full',
        'maria feed.fetched feed full',
        'maria menu.upserted nord',
        'kim availability.set meal 1',
        'maria day.closed 2026-03-12',
        'maria day.opened 2026-03-12',
        `ada dishes.merged dish ${mergedInto}`,
        'maria meal.withdrawn meal 2',
        'ada menu.upserted sued',
        'ada webhook.created webhook ops',
        'ada webhook.changed webhook ops',
        'ada webhook.deleted webhook ops',
        'ada canteen.archived sued',
        'ada canteen.restored sued',
      ]);
      const byAction = (action: string) => entries.find((entry: any) => entry.action === action);
      expect(byAction('availability.set')).toMatchObject({
        actor: 'kim',
        actor_scopes: ['meals:kitchen@nord'],
        canteen_id: 'nord',
        at: now.toISOString(),
        summary: { meal_id: 1, old_status: 'available', new_status: 'sold_out' },
        request_id: expect.any(String),
      });
      expect(
        entries.find((entry: any) => entry.action === 'menu.upserted' && entry.canteen_id === 'nord').summary,
      ).toEqual({ added: [1, 2], changed: [], withdrawn: [] });
      expect(byAction('canteen.edited').summary).toEqual({ changed: ['name'] });
      expect(byAction('feed.fetched').summary).toMatchObject({ feed: 'full', succeeded: false, http_status: 404 });
      expect(byAction('webhook.changed')).toMatchObject({ canteen_id: null, actor_scopes: ['meals:write'] });
      expect(JSON.stringify(entries)).not.toContain('whsec_');
      // The refused changes: 403 each, and no entry of kim or maria at sued, nor of maria at the webhooks.
      expect(refusals).toEqual([403, 403, 403]);
      expect(entries.filter((entry: any) => entry.actor !== 'ada' && entry.canteen_id !== 'nord')).toEqual([]);
    });

    it('filters by canteen, person and action, and pages newest first with a cursor', async () => {
      expect((await trail('?actor=kim')).entries.map((entry: any) => entry.action)).toEqual(['availability.set']);
      expect((await trail('?canteen=sued')).entries.map((entry: any) => entry.action)).toEqual([
        'canteen.restored',
        'canteen.archived',
        'menu.upserted',
        'canteen.created',
      ]);
      expect((await trail('?action=day.closed&canteen=nord')).entries).toHaveLength(1);
      const first = await trail('?canteen=sued&limit=2');
      expect(first.entries).toHaveLength(2);
      const second = await trail(`?canteen=sued&limit=2&cursor=${first.next_cursor}`);
      expect(second.entries.map((entry: any) => entry.action)).toEqual(['menu.upserted', 'canteen.created']);
      expect(second.next_cursor).toBeNull();
      const tampered = await call('GET', `/api/v1/admin/audit?canteen=nord&limit=2&cursor=${first.next_cursor}`, admin);
      expect(tampered.status).toBe(400);
      expect(tampered.body.error.code).toBe('invalid_cursor');
    });

    it("shows a manager their canteen's entries only, refuses another canteen's, and the kitchen none", async () => {
      const mine = await trail('?limit=100', manager);
      expect(new Set(mine.entries.map((entry: any) => entry.canteen_id))).toEqual(new Set(['nord']));
      expect(mine.entries.some((entry: any) => entry.action.startsWith('webhook.'))).toBe(false);
      const other = await call('GET', '/api/v1/admin/audit?canteen=sued', manager);
      expect(other.status).toBe(403);
      expect(other.body.error.code).toBe('forbidden');
      expect(other.body.error.message).toContain('sued');
      expect((await call('GET', '/api/v1/admin/audit', kitchen)).status).toBe(403);
    });

    it('exports the same trail as CSV, newest first', async () => {
      const answer = await call('GET', '/api/v1/admin/audit/export?canteen=sued', admin);
      expect(answer.status).toBe(200);
      expect(answer.type).toBe('text/csv; charset=utf-8');
      const lines = answer.text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe('id,at,actor,actor_scopes,action,canteen_id,target,summary,request_id');
      expect(lines.slice(1).map((line) => line.split(',')[4])).toEqual([
        'canteen.restored',
        'canteen.archived',
        'menu.upserted',
        'canteen.created',
      ]);
      expect(lines[4]).toContain('"ada"');
    });
  });
}
