import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('DATABASE_URL selects the adapter', () => {
  it.each([
    ['postgres://meals:secret@db.internal:5432/meals', 'postgres'],
    ['postgresql://meals@10.0.0.7/meals?sslmode=require', 'postgres'],
    ['sqlite:./data/meals.db', 'sqlite'],
    ['memory:', 'memory'],
  ])('%s -> %s', (url, kind) => {
    const { database } = loadConfig({ DATABASE_URL: url });
    expect(database.kind).toBe(kind);
    if (database.kind === 'postgres') expect(database.url).toBe(url);
  });

  it('refuses anything else without echoing the value, which may hold a password', () => {
    for (const url of ['mysql://root:hunter2@db/meals', 'postgres://', 'postgres:meals']) {
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_URL: url })).not.toThrow(/hunter2|mysql|postgres:meals/);
    }
  });

  it('sizes the PostgreSQL pool per instance: 10 by default, 1 to 100', () => {
    expect(loadConfig({}).postgresPoolSize).toBe(10);
    expect(loadConfig({ POSTGRES_POOL_SIZE: '25' }).postgresPoolSize).toBe(25);
    expect(() => loadConfig({ POSTGRES_POOL_SIZE: '0' })).toThrow(
      /POSTGRES_POOL_SIZE must be an integer from 1 to 100/,
    );
  });

  it('takes a direct connection for LISTEN from DATABASE_LISTEN_URL, a PostgreSQL URL; unset: DATABASE_URL is used', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://meals@pgbouncer:6432/meals' }).databaseListenUrl).toBeUndefined();
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://meals@pgbouncer:6432/meals',
        DATABASE_LISTEN_URL: 'postgres://meals@db:5432/meals',
      }).databaseListenUrl,
    ).toBe('postgres://meals@db:5432/meals');
    expect(() => loadConfig({ DATABASE_LISTEN_URL: 'mysql://root:hunter2@db/meals' })).toThrow(
      /DATABASE_LISTEN_URL must be postgres:\/\//,
    );
    expect(() => loadConfig({ DATABASE_LISTEN_URL: 'mysql://root:hunter2@db/meals' })).not.toThrow(/hunter2/);
  });
});
