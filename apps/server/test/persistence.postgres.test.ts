import { afterAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
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

    await persistence.meals.upsertMany([{ id: 5, name: 'Pho', servedAt: new Date(), rateable: true }]);
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
});
