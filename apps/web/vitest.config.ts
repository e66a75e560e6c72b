import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.tsx', 'src/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    // A screen's first render loads its parts; on a loaded 2-core machine (npm test runs two suites at once) that
    // can take longer than vitest's default 5 s.
    testTimeout: 20_000,
    // Each test file loads the UI libraries again; bundled once per run into a few files (instead of thousands of
    // small modules: @tabler/icons-react alone is one per icon) they load in half the time, a tenth of the suite's CPU.
    deps: {
      optimizer: {
        client: {
          enabled: true,
          include: [
            '@mantine/charts',
            '@mantine/core',
            '@mantine/dates',
            '@mantine/form',
            '@mantine/hooks',
            '@mantine/notifications',
            '@tabler/icons-react',
            '@tanstack/react-query',
            '@testing-library/dom',
            '@testing-library/react',
            'dayjs',
            'i18next',
            'react',
            'react-dom',
            'react-dom/client',
            'react-i18next',
            'react-router',
            'recharts',
          ],
        },
      },
    },
  },
});
