import { isPostgresStorageFailure, PostgresStorageHealth } from '@canteen-meals/adapters-postgres';
import { isStorageUnavailable } from '@canteen-meals/domain';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

/** An error as node-postgres builds it from the server's ErrorResponse. */
function serverError(code: string, message = 'induced'): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

describe('isPostgresStorageFailure', () => {
  it.each([
    ['25006', 'read_only_sql_transaction'],
    ['53100', 'disk_full'],
    ['53200', 'out_of_memory'],
    ['53300', 'too_many_connections'],
    ['58030', 'io_error'],
    ['08006', 'connection_failure'],
    ['57P01', 'admin_shutdown'],
    ['57P03', 'cannot_connect_now'],
  ])('counts SQLSTATE %s (%s) as the storage failing', (code) => {
    expect(isPostgresStorageFailure(serverError(code))).toBe(true);
  });

  it.each([
    ['23505', 'unique_violation'],
    ['40001', 'serialization_failure'],
    ['22P02', 'invalid_text_representation'],
    ['42P01', 'undefined_table'],
  ])('does not count SQLSTATE %s (%s): that write, not the storage, is wrong', (code) => {
    expect(isPostgresStorageFailure(serverError(code))).toBe(false);
  });

  it('counts a lost or refused connection, and nothing else', () => {
    expect(
      isPostgresStorageFailure(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(isPostgresStorageFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isPostgresStorageFailure(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isPostgresStorageFailure(new Error('meal not found'))).toBe(false);
    expect(isPostgresStorageFailure('a string')).toBe(false);
  });
});

describe('PostgresStorageHealth', () => {
  it('turns a failing storage into StorageUnavailableError, tells once, and is available again after a write succeeds', async () => {
    const reasons: string[] = [];
    const health = new PostgresStorageHealth({ onUnavailable: (reason) => reasons.push(reason) });
    const diskFull = () => Promise.reject(serverError('53100', 'could not extend file: No space left on device'));

    for (let attempt = 0; attempt < 3; attempt++) {
      const failure = await health.guard(diskFull).catch((error: unknown) => error);
      expect(isStorageUnavailable(failure)).toBe(true);
    }
    expect(() => health.assertAvailable()).toThrow(/53100/);
    expect(reasons).toEqual([
      'PostgreSQL cannot keep writes: SQLSTATE 53100: could not extend file: No space left on device',
    ]);

    const unique = serverError('23505');
    await expect(health.guard(() => Promise.reject(unique))).rejects.toBe(unique);
    expect(await health.guard(async () => 'kept')).toBe('kept');
    expect(() => health.assertAvailable()).not.toThrow();
  });
});
