import type pg from 'pg';

/**
 * The pool as a transaction-pooling proxy (PgBouncer `pool_mode = transaction`) makes it look: no session survives
 * what it was lent for. A statement outside a transaction, and each transaction (a `connect()` until `release()`),
 * is followed by `DISCARD ALL` on its connection, which resets settings, deallocates prepared statements, releases
 * session advisory locks and drops LISTENs: code that relied on any of them across a release fails here.
 */
export function behindTransactionPooler(pool: pg.Pool): pg.Pool {
  const discardThenRelease = (client: pg.PoolClient, release: (error?: Error | boolean) => void) => {
    client.query('DISCARD ALL').then(
      () => release(),
      (error: Error) => release(error),
    );
  };
  const query = async (...args: unknown[]) => {
    const client = await pool.connect();
    const release = client.release.bind(client);
    try {
      return await (client.query as (...given: unknown[]) => Promise<unknown>)(...args);
    } finally {
      discardThenRelease(client, release);
    }
  };
  const connect = async () => {
    const client = await pool.connect();
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => (error ? release(error) : discardThenRelease(client, release));
    return client;
  };
  return new Proxy(pool, {
    get: (target, property) => {
      if (property === 'query') return query;
      if (property === 'connect') return connect;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
