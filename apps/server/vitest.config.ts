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
    // A test file's worker lives seconds: PGlite's WebAssembly (PostgreSQL) runs on V8's baseline compiler only, instead
    // of also compiling its hot functions again with the optimising one, which costs more than it saves here (about a
    // tenth of the suite's CPU time, measured).
    execArgv: ['--liftoff-only'],
  },
});
