import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, describe, expect, it } from 'vitest';
import { databasePerFile, onServer } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { buildServer } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { openPersistence } from '../src/persistence.js';

const databaseUrl = databasePerFile();
const closeLater: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closeLater) await close();
});

describe('DATABASE_URL=postgres://… in the composition root', () => {
  it('opens a migrated PostgreSQL whose repositories the server uses, ready until it is closed', async () => {
    const config = loadConfig({ DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent', POSTGRES_POOL_SIZE: '2' });
    expect(config.database.kind).toBe('postgres');
    const persistence = await openPersistence(config);
    const { app } = await buildServer(config, { persistence });
    closeLater.push(() => app.close());

    await persistence.meals.upsertMany([MealMother.servedAt(new Date(), { id: 5, name: 'Pho' })]);
    expect(await persistence.meals.count()).toBe(1);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    await persistence.close();
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'error', error: { code: 'not_ready' } });
  });

  it('names the database it could not open, and stops', async () => {
    const unreachable = new URL(databaseUrl());
    unreachable.pathname = '/no_such_database';
    const config = loadConfig({ DATABASE_URL: unreachable.toString(), LOG_LEVEL: 'silent' });
    await expect(openPersistence(config)).rejects.toThrow(/no_such_database/);
  });

  it('answers 503 storage_unavailable while the database is read-only, and is ready again after a write succeeds', async () => {
    const secret = 'postgres-storage-test-secret-of-32-bytes';
    const config = loadConfig({
      DATABASE_URL: databaseUrl(),
      LOG_LEVEL: 'silent',
      POSTGRES_POOL_SIZE: '2',
      JWT_SECRET: secret,
    });
    const persistence = await openPersistence(config, () => {});
    const { app } = await buildServer(config, { persistence });
    closeLater.push(() => app.close());
    await persistence.meals.upsertMany([MealMother.servedAt(new Date(Date.now() - 60_000), { id: 6, name: 'Ramen' })]);
    const headers = { authorization: `Bearer ${signHmacToken(secret, { sub: 'alice' })}` };
    const rate = (rating: number) =>
      app.inject({ method: 'POST', url: '/api/v1/rate-meal', headers, payload: { meal_id: 6, rating } });

    // What a promoted-away primary or an operator's emergency switch does: every new session refuses writes (25006).
    const name = new URL(databaseUrl()).pathname.slice(1);
    const setReadOnly = (setting: 'on' | 'off' | 'default') =>
      onServer(new URL(databaseUrl()), async (admin) => {
        // The test database's name is made of [a-z0-9_] only (see databasePerFile).
        await admin.query('SET default_transaction_read_only = off');
        await admin.query(
          `ALTER DATABASE "${name}" SET default_transaction_read_only = ${setting === 'default' ? 'DEFAULT' : setting}`,
        );
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
      });
    try {
      await setReadOnly('on');
      // The first attempt may meet a terminated pooled connection; it, too, is the storage failing.
      for (const rating of [5, 4]) {
        const answer = await rate(rating);
        expect(answer.statusCode).toBe(503);
        expect(answer.json()).toMatchObject({ status: 'error', error: { code: 'storage_unavailable' } });
      }
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

      await setReadOnly('off');
      let answer = await rate(3);
      // A pooled connection that the switch back terminated fails once more; the next write finds a fresh one.
      if (answer.statusCode === 503) answer = await rate(3);
      expect(answer.statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await setReadOnly('default');
    }
  });
});
