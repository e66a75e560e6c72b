import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file builds its own app and database, a copy of the run's migrated and seeded template (test/template-db.ts);
    // two at a time suits the 2-core machines.
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: 2,
  },
});
