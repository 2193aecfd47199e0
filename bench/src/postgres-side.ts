import { findPostgresBinaries, startThrowawayCluster } from '@canteen-meals/test-postgres';
import { send, type ProbeRequest, type Target } from './processes.js';
import { startServer } from './server-under-test.js';

export type PostgresSide =
  | {
      readonly available: true;
      readonly server: Target;
      /** Starts one more instance of the server on the same database (stopped with the side). */
      startAnother(): Promise<Target>;
      stop(): Promise<void>;
    }
  | { readonly available: false; readonly reason: string };

/**
 * The same server on a throwaway PostgreSQL cluster, its open meals put in through the admin route, so
 * that the bench needs no SQL of its own for PostgreSQL.
 */
export async function startPostgresSide(options: {
  jwtSecret: string;
  probe: ProbeRequest;
  adminAuthorization: string;
  meals: readonly { meal_id: number; name: string; served_at: string; rateable: boolean }[];
}): Promise<PostgresSide> {
  try {
    await findPostgresBinaries();
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  }
  // PostgreSQL's production defaults, not the cluster's test settings: every commit is flushed to disk.
  const cluster = await startThrowawayCluster({ settings: { fsync: 'on', synchronous_commit: 'on' } });
  try {
    const databaseUrl = await cluster.createDatabase('meals_bench');
    // The rating probe needs the meals, which only the admin route can put in once the server runs.
    const server = await startServer({
      name: 'server on PostgreSQL',
      databaseUrl,
      jwtSecret: options.jwtSecret,
      probe: { method: 'GET', path: '/readyz', headers: {} },
    });
    const others: Target[] = [];
    const stop = async () => {
      try {
        for (const other of others) await other.stop();
        await server.stop();
      } finally {
        await cluster.stop();
      }
    };
    const startAnother = async () => {
      const other = await startServer({
        name: `server on PostgreSQL ${others.length + 2}`,
        databaseUrl,
        jwtSecret: options.jwtSecret,
        probe: options.probe,
      });
      others.push(other);
      return other;
    };
    try {
      // In parts: the route takes at most 1000 meals per request.
      for (let start = 0; start < options.meals.length; start += 500) {
        const upsert = await send(server.url, {
          method: 'PUT',
          path: '/api/v1/admin/meals',
          headers: { authorization: options.adminAuthorization, 'content-type': 'application/json' },
          body: JSON.stringify({ meals: options.meals.slice(start, start + 500) }),
        });
        if (upsert.status !== 200)
          throw new Error(`PUT /api/v1/admin/meals on PostgreSQL: ${upsert.status} ${upsert.body}`);
      }
      const probe = await send(server.url, options.probe);
      if (probe.status !== 200) throw new Error(`the server on PostgreSQL answered ${probe.status}: ${probe.body}`);
    } catch (error) {
      await stop();
      throw error;
    }
    return { available: true, server, startAnother, stop };
  } catch (error) {
    await cluster.stop().catch(() => undefined);
    throw error;
  }
}
