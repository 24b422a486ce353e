import { defineConfig } from 'vitest/config';

/**
 * One Vitest run for the whole workspace. The server's database-backed suites run on embedded PGlite,
 * and again on PostgreSQL when TEST_DATABASE_URL is set (CI sets it), as a separate project so the
 * report shows which database each pass used.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const dbBacked = ['apps/server/test/**/*.test.ts', 'apps/server/src/modules/**/*.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. CI sets
    // VITEST_MAX_WORKERS=2 (most server tests wait on sockets and timers, not on a core).
    ...(process.env.VITEST_MAX_WORKERS ? { maxWorkers: Number(process.env.VITEST_MAX_WORKERS) } : {}),
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server (pglite)',
          include: ['apps/server/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                name: 'server (postgres)',
                include: dbBacked,
                environment: 'node' as const,
                env: { TEST_DB: 'postgres', TEST_DATABASE_URL: postgresUrl },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      'apps/web/vitest.config.ts',
    ],
  },
});
