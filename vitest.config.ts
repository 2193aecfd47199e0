import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests that need a PostgreSQL server run in a project of their own, whose global setup starts one only when they run.
const postgresTests = [
  'packages/adapters-postgres/test/**/*.test.ts',
  'packages/test-postgres/test/**/*.test.ts',
  'apps/*/test/**/*.postgres.test.ts',
];

// Tests import the workspace packages from source, so a test run never depends on a stale build.
export default defineConfig({
  resolve: {
    alias: {
      // A subpath before its package: an alias also matches the paths under its name.
      '@canteen-meals/domain/ports': source('./packages/domain/src/ports.ts'),
      '@canteen-meals/domain': source('./packages/domain/src/index.ts'),
      '@canteen-meals/adapters-memory': source('./packages/adapters-memory/src/index.ts'),
      '@canteen-meals/adapters-sqlite': source('./packages/adapters-sqlite/src/index.ts'),
      '@canteen-meals/test-postgres': source('./packages/test-postgres/src/index.ts'),
      '@canteen-meals/test-oidc': source('./packages/test-oidc/src/index.ts'),
      '@canteen-meals/test-push': source('./packages/test-push/src/index.ts'),
      '@canteen-meals/adapters-postgres': source('./packages/adapters-postgres/src/index.ts'),
      '@canteen-meals/http-contract': source('./packages/http-contract/src/index.ts'),
      '@canteen-meals/read-models': source('./packages/read-models/src/index.ts'),
      '@canteen-meals/adapters-jwt': source('./packages/adapters-jwt/src/index.ts'),
      '@canteen-meals/adapters-http-docs': source('./packages/adapters-http-docs/src/index.ts'),
      '@canteen-meals/adapters-http-webhooks': source('./packages/adapters-http-webhooks/src/index.ts'),
      '@canteen-meals/adapters-http-push': source('./packages/adapters-http-push/src/index.ts'),
      '@canteen-meals/adapters-http-live': source('./packages/adapters-http-live/src/index.ts'),
      '@canteen-meals/adapters-http-openmensa': source('./packages/adapters-http-openmensa/src/index.ts'),
      '@canteen-meals/adapters-http-pages': source('./packages/adapters-http-pages/src/index.ts'),
      '@canteen-meals/adapters-http/plugin-kit': source('./packages/adapters-http/src/plugin-kit.ts'),
      '@canteen-meals/adapters-http': source('./packages/adapters-http/src/index.ts'),
      // The start-time entry points first: an alias also matches the paths under its name.
      '@canteen-meals/adapters-openmensa/writer': source('./packages/adapters-openmensa/src/writer.ts'),
      '@canteen-meals/adapters-outbound/policy': source('./packages/adapters-outbound/src/policy.ts'),
      '@canteen-meals/adapters-openmensa': source('./packages/adapters-openmensa/src/index.ts'),
      '@canteen-meals/adapters-outbound': source('./packages/adapters-outbound/src/index.ts'),
      '@canteen-meals/client': source('./packages/client/src/index.ts'),
      '@canteen-meals/repository-contract': source('./packages/repository-contract/src/index.ts'),
    },
  },
  test: {
    // Two test files at once at least: vitest's default on a machine of n cores is n - 1 workers, one on two cores,
    // but most of the slow files wait on processes they started (CLIs, servers, Chromium, PostgreSQL), not on a core.
    // On this repository's two-core machine the suite took 305 s with one worker and 203 s with two
    // (docs/benchmarks.md, "Two test files at once").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          sequence: { groupOrder: 0 },
          include: [
            'packages/*/test/**/*.test.ts',
            'apps/*/test/**/*.test.ts',
            'bench/test/**/*.test.ts',
            'examples/*/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...postgresTests],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: postgresTests,
          // After the other project, not beside it: two cores, and a PostgreSQL server plus server processes under
          // load.
          sequence: { groupOrder: 1 },
          globalSetup: ['packages/adapters-postgres/test/global-setup.ts'],
        },
      },
    ],
  },
});
