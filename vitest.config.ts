import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'engine/**/*.test.ts',
      'main/**/*.test.ts',
      'renderer/**/*.test.ts',
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/fault-injection/**/*.test.ts',
    ],
    environment: 'node',
    globalSetup: ['test/setup/build-cli.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
