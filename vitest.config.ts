import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test projects:
 * - unit: pure functions and components, beside the code (`*.test.ts(x)`);
 * - api-pglite: API tests (`*.api.test.ts`) through `app.inject()`, each file on a fresh in-memory PGlite;
 * - api-postgres: the same API tests on PostgreSQL, only when TEST_DATABASE_URL is set (CI sets it).
 */
const apiTests = ['apps/server/src/**/*.api.test.ts', 'apps/server/test/**/*.api.test.ts'];
const apiProject = (name: string, db: 'pglite' | 'postgres') => ({
  test: {
    name,
    include: apiTests,
    environment: 'node',
    env: { MERIDIAN_TEST_DB: db },
    globalSetup: ['apps/server/test/global-setup.ts'],
    setupFiles: ['apps/server/test/ledger-invariants.ts'],
    // One worker runs many files without re-importing the server for each (measured in
    // docs/testing.md); every file still builds its own app on its own database.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default for `run` is one worker fewer than the cores: one on these 2-core machines,
    // with the second core mostly idle while PGlite or PostgreSQL works (measured in docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/*.api.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      apiProject('api-pglite', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [apiProject('api-postgres', 'postgres')] : []),
    ],
  },
});
