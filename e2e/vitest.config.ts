import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['journeys/**/*.test.ts'],
    // One first start, copied by every journey's server (support/global-setup.ts).
    globalSetup: ['support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // Each file starts its own server and Chromium; one at a time keeps timings stable on 2 cores.
    fileParallelism: false,
  },
});
