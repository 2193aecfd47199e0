import type pg from 'pg';
import { StatementPipeline } from './statement-pipeline.js';

const patched = Symbol('meals.unnamedStatements');

type QueryFunction = (...args: unknown[]) => unknown;

/**
 * A query config without its `name`: node-pg prepares a named statement once per connection and reuses it. A
 * statement pipeline parses its statements each time instead.
 */
function unnamed(args: unknown[]): unknown[] {
  const [config, ...rest] = args;
  if (config instanceof StatementPipeline) return [config.unnamed(), ...rest];
  if (typeof config !== 'object' || config === null || !('name' in config)) return args;
  const { name: _name, ...withoutName } = config as { name?: unknown };
  return [withoutName, ...rest];
}

/**
 * The pool for `transaction` pool mode. The adapters name their hottest statements (`{ name, text }`), which node-pg
 * prepares once per connection and then only binds: behind a transaction pooler the next transaction may run on a
 * server session that never prepared it ("prepared statement ... does not exist"). Here every statement goes unnamed
 * (parsed each time, in the same round trip), on `pool.query` and on the clients `pool.connect()` lends. Nothing else
 * the pool's users do keeps session state: settings are `SET LOCAL`, advisory locks are transaction-level; migrations
 * and LISTEN use connections of their own.
 */
export function withoutSessionState(pool: pg.Pool): pg.Pool {
  const query = (...args: unknown[]) => (pool.query as QueryFunction)(...unnamed(args));
  const connect = async () => {
    const client = (await pool.connect()) as pg.PoolClient & { [patched]?: true };
    if (client[patched] !== true) {
      const original = client.query.bind(client) as QueryFunction;
      client.query = ((...args: unknown[]) => original(...unnamed(args))) as typeof client.query;
      client[patched] = true;
    }
    return client;
  };
  return new Proxy(pool, {
    get: (target, property) => {
      if (property === 'query') return query;
      if (property === 'connect') return connect;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as QueryFunction).bind(target) : value;
    },
  });
}
