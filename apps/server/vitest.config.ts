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
    // On PostgreSQL a worker goes on to its next file without loading the server's modules again, which took about half
    // of that run (9:42 → 5:40–6:24, every test passing). On PGlite each file keeps a fresh worker: there it saved a
    // tenth, and the files' tests ran slower in a worker holding its earlier files' WebAssembly databases.
    isolate: !process.env.TEST_DATABASE_URL,
    // A test file's worker lives seconds: PGlite's WebAssembly (PostgreSQL) runs on V8's baseline compiler only, instead
    // of also compiling its hot functions again with the optimising one, which costs more than it saves here (about a
    // tenth of the suite's CPU time, measured).
    execArgv: ['--liftoff-only'],
  },
});
