import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests import the workspace packages from source, so a test run never depends on a stale build.
export default defineConfig({
  resolve: {
    alias: {
      '@meals/domain': source('./packages/domain/src/index.ts'),
      '@meals/adapters-memory': source('./packages/adapters-memory/src/index.ts'),
      '@meals/adapters-sqlite': source('./packages/adapters-sqlite/src/index.ts'),
      '@meals/adapters-http': source('./packages/adapters-http/src/index.ts'),
      '@meals/adapters-openmensa': source('./packages/adapters-openmensa/src/index.ts'),
      '@meals/client': source('./packages/client/src/index.ts'),
      '@meals/repository-contract': source('./packages/repository-contract/src/index.ts'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
