import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

/**
 * A database of its own for one test file, so that files run in parallel on one server: created before the file's
 * tests, dropped after them. Returns an accessor for its URL.
 */
export function databasePerFile(): () => string {
  const name = `meals_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const server = new URL(inject('postgresServerUrl'));
  let url: string | undefined;
  beforeAll(async () => {
    await onServer(server, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    const own = new URL(server);
    own.pathname = `/${name}`;
    url = own.toString();
  });
  afterAll(async () => {
    await onServer(server, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  });
  return () => {
    if (url === undefined) throw new Error('the test database exists only while the file runs');
    return url;
  };
}

async function onServer(server: URL, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
