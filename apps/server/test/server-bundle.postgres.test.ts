import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { startServer, type ServerProcess } from './support/server-process.js';

// The bundled server (apps/server/build-bundle.mjs) on PostgreSQL: the pg driver (external) loads from its
// lazy chunk and the migrations are read from their copy beside the bundle, on a database of its own.

const bundle = fileURLToPath(new URL('../dist/bundle/server.js', import.meta.url));
const secret = 'server-bundle-postgres-secret-of-32-bytes';
const databaseUrl = databasePerFile();
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer(
    { NODE_ENV: 'production', JWT_SECRET: secret, DATABASE_URL: databaseUrl(), HOST: '127.0.0.1' },
    30_000,
    { main: bundle },
  );
}, 40_000);
afterAll(async () => expect(await server?.stop()).toBe(0));

describe('the bundled server on PostgreSQL', () => {
  it('migrates a new database and rates a meal, warning of nothing', async () => {
    const send = (method: string, path: string, token: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const servedAt = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const admin = signHmacToken(secret, { sub: 'kitchen', scope: adminScope });
    expect(
      (
        await send('PUT', '/api/v1/admin/meals', admin, {
          meals: [{ meal_id: 7, name: 'Lentil soup', served_at: servedAt, rateable: true }],
        })
      ).status,
    ).toBe(200);
    const rated = await send('POST', '/api/v1/rate-meal', signHmacToken(secret, { sub: 'alice' }), {
      meal_id: 7,
      rating: 5,
    });
    expect(await rated.json()).toEqual({
      status: 'success',
      data: { rating_count: 1, rating_average: 5, rating_median: 5, rating_personal: 5 },
    });
    expect(server.output()).toContain('(database: PostgreSQL');
    expect(server.output()).not.toMatch(/"level":(40|50|60)/);
  });
});
