import type { TestProject } from 'vitest/node';
import { startThrowawayCluster } from '@canteen-meals/test-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server on which the tests may create and drop databases (superuser). */
    postgresServerUrl: string;
  }
}

/**
 * Runs once for the `postgres` test project, only when one of its files is queued: uses TEST_DATABASE_URL when it is
 * given, and otherwise starts a throwaway cluster (binaries chosen by PG_BINARIES, see postgres-binaries.ts) that the
 * teardown stops and deletes.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.TEST_DATABASE_URL;
  if (given !== undefined && given !== '') {
    project.provide('postgresServerUrl', given);
    return undefined;
  }
  const cluster = await startThrowawayCluster();
  const { source, binDir } = cluster.binaries;
  console.info(
    `postgres tests: throwaway cluster from the ${source} binaries (${binDir})${cluster.osUser ? `, as OS user ${cluster.osUser}` : ''}`,
  );
  project.provide('postgresServerUrl', cluster.url);
  return () => cluster.stop();
}
