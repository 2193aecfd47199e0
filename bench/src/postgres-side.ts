import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { send, type ProbeRequest, type Target } from './processes.js';
import { repositoryRoot, startServer } from './server-under-test.js';

/** The part of packages/adapters-postgres/throwaway-cluster that the bench uses. */
interface ThrowawayCluster {
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}
type StartThrowawayCluster = (options?: { settings?: Readonly<Record<string, string>> }) => Promise<ThrowawayCluster>;

const clusterModule = join(repositoryRoot, 'packages/adapters-postgres/dist/throwaway-cluster.js');

export type PostgresSide =
  | { readonly available: true; readonly server: Target; stop(): Promise<void> }
  | { readonly available: false; readonly reason: string };

/**
 * The same server on a throwaway PostgreSQL cluster (issue 6), its open meals put in through the admin route.
 * Loaded by path, so that the bench builds and runs in a checkout without the PostgreSQL adapter.
 */
export async function startPostgresSide(options: {
  jwtSecret: string;
  probe: ProbeRequest;
  adminAuthorization: string;
  meals: readonly { meal_id: number; name: string; served_at: string; rateable: boolean }[];
}): Promise<PostgresSide> {
  if (!existsSync(clusterModule)) {
    return { available: false, reason: 'packages/adapters-postgres (issue 6) is not in this checkout' };
  }
  const { startThrowawayCluster } = (await import(pathToFileURL(clusterModule).href)) as {
    startThrowawayCluster: StartThrowawayCluster;
  };
  // PostgreSQL's production defaults (the throwaway cluster turns durability off for tests): every commit is flushed.
  const cluster = await startThrowawayCluster({ settings: { fsync: 'on', synchronous_commit: 'on' } });
  try {
    const databaseUrl = await cluster.createDatabase('meals_bench');
    // The start probe marks a meal, which does not exist yet: the admin route puts the meals in first.
    const server = await startServer({
      name: 'server on PostgreSQL',
      databaseUrl,
      jwtSecret: options.jwtSecret,
      probe: { method: 'GET', path: '/readyz', headers: {} },
    });
    const answer = await send(server.url, {
      method: 'PUT',
      path: '/api/v1/admin/meals',
      headers: { authorization: options.adminAuthorization, 'content-type': 'application/json' },
      body: JSON.stringify({ meals: options.meals }),
    });
    if (answer.status !== 200) throw new Error(`PUT /api/v1/admin/meals on PostgreSQL: ${answer.status} ${answer.body}`);
    const probe = await send(server.url, options.probe);
    if (probe.status !== 200) throw new Error(`the server on PostgreSQL answered ${probe.status}: ${probe.body}`);
    return {
      available: true,
      server,
      stop: async () => {
        try {
          await server.stop();
        } finally {
          await cluster.stop();
        }
      },
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
