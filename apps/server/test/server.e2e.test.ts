import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { TokenMother } from '../../../packages/adapters-jwt/test/token-fixtures.js';
import { runServerToExit, runToExit, startServer, type ServerProcess } from './support/server-process.js';

const secret = 'e2e-secret-that-is-at-least-32-bytes-long';
const importCli = fileURLToPath(new URL('../dist/cli/import-meals.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'meals-e2e-'));
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  rmSync(folder, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const server = await startServer(env);
  running.push(server);
  return server;
}

async function call(server: ServerProcess, method: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

describe('the real server process on SQLite', () => {
  const database = `sqlite:${join(folder, 'nested', 'meals.db')}`;
  const production = { NODE_ENV: 'production', JWT_SECRET: secret, DATABASE_URL: database, DATABASE_CREATE: '1' };
  const tokens = TokenMother.signedWith(secret);
  const admin = tokens.admin();
  const alice = tokens.user('alice');
  const bob = tokens.user('bob');

  it('serves the whole contract over real HTTP and keeps it across a restart', async () => {
    const server = await start(production);
    expect(server.output()).not.toContain('curl');

    const ramen = MealMother.servedToday(new Date(), { id: 7, name: 'Ramen' });
    const upsert = await call(server, 'PUT', '/api/v1/admin/meals', admin, MealMother.upsertBody(ramen));
    expect(upsert).toMatchObject({ status: 200, body: { status: 'success', data: { upserted: 1 } } });

    expect((await call(server, 'POST', '/api/v1/rate-meal', alice, { meal_id: 7, rating: 5 })).body.data).toEqual({
      rating_count: 1,
      rating_average: 5,
      rating_median: 5,
      rating_personal: 5,
    });
    const second = await call(server, 'POST', '/api/v1/rate-meal', bob, { meal_id: 7, rating: 2 });
    expect(second.body.data).toEqual({ rating_count: 2, rating_average: 3.5, rating_median: 3.5, rating_personal: 2 });
    expect((await call(server, 'POST', '/api/v1/mark-meal', alice, { meal_id: 7, marked: true })).body).toEqual({
      status: 'success',
      data: { marked: true },
    });

    const anonymous = await call(server, 'POST', '/api/v1/rate-meal', null, { meal_id: 7, rating: 1 });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.body.error.code).toBe('unauthenticated');

    expect(await server.stop('SIGTERM')).toBe(0);

    const restarted = await start(production);
    const after = await call(restarted, 'POST', '/api/v1/rate-meal', alice, { meal_id: 7, rating: 5 });
    expect(after.body.data).toEqual({ rating_count: 2, rating_average: 3.5, rating_median: 3.5, rating_personal: 5 });
    expect(await restarted.stop('SIGINT')).toBe(0);
  });

  it('seeds a demo menu outside production and prints a curl line that works', async () => {
    const server = await start({ DATABASE_URL: `sqlite:${join(folder, 'demo.db')}` });
    expect(server.output()).toContain('seeded a demo menu');
    const token = /Bearer ([\w.-]+)/.exec(server.output())?.[1];
    expect(token).toBeDefined();
    const rated = await call(server, 'POST', '/api/v1/rate-meal', token!, { meal_id: 1, rating: 5 });
    expect(rated.body.data.rating_personal).toBe(5);
    const refused = await Promise.all(
      [5, 6, 7].map(
        async (mealId) =>
          (await call(server, 'POST', '/api/v1/rate-meal', token!, { meal_id: mealId, rating: 3 })).body.error.code,
      ),
    );
    expect(refused).toEqual(['meal_not_rateable', 'meal_not_yet_served', 'rating_period_over']);
    expect(await server.stop()).toBe(0);

    const again = await start({ DATABASE_URL: `sqlite:${join(folder, 'demo.db')}` });
    expect(again.output()).not.toContain('seeded a demo menu');
    await again.stop();
  });

  it('prints the demo curl line only when it seeded the demo menu: not over a database that already has meals', async () => {
    // A database that already has a menu (imported, not the demo): meal 1 of the curl line may not exist in it.
    const path = join(folder, 'imported.db');
    const withImportedMenu = join(folder, 'imported-menu.json');
    writeFileSync(
      withImportedMenu,
      JSON.stringify(MealMother.upsertBody(MealMother.servedAt(new Date(), { id: 3, name: 'Soup' }))),
    );
    expect((await runToExit(importCli, [withImportedMenu], { DATABASE_URL: `sqlite:${path}` })).code).toBe(0);

    const server = await start({ DATABASE_URL: `sqlite:${path}` });
    expect(server.output()).not.toContain('seeded a demo menu');
    expect(server.output()).not.toContain('curl');
    expect(server.output()).not.toContain('try it');
    expect(server.output()).toContain('listening on');
    await server.stop();
  });

  it('mints the demo token for no longer than JWT_MAX_LIFETIME_HOURS, so that the curl line still works', async () => {
    const server = await start({
      DATABASE_URL: `sqlite:${join(folder, 'short-lived.db')}`,
      JWT_MAX_LIFETIME_HOURS: '2',
    });
    expect(server.output()).toContain('the token is valid for 2 hours');
    const token = /Bearer ([\w.-]+)/.exec(server.output())![1]!;
    expect((await call(server, 'POST', '/api/v1/rate-meal', token, { meal_id: 1, rating: 4 })).status).toBe(200);
    await server.stop();
  });

  it.each([
    ['a missing secret', { NODE_ENV: 'production', DATABASE_URL: database }, 'JWT_SECRET is required'],
    [
      'a short secret',
      { NODE_ENV: 'production', JWT_SECRET: 'short', DATABASE_URL: database },
      'JWT_SECRET must have at least 32 bytes',
    ],
    ['a bad port', { PORT: 'eighty', DATABASE_URL: database }, 'PORT must be an integer'],
    ['a bad database url', { DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be'],
  ])('refuses to start with %s, saying why', async (_, env, message) => {
    const { code, output } = await runServerToExit(env);
    expect(code).toBe(1);
    expect(output).toContain(message);
  });
});
