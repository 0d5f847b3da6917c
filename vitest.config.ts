import { defineConfig } from 'vitest/config';

/** Files that run against both sandbox profiles: the `spec` project repeats them with
 *  TARIFFS_TEST_PROFILE=spec (test/helpers/testProfile.ts). */
const BOTH_PROFILES = [
  'test/warehouse.test.ts', 'test/ingest-cli.test.ts', 'test/analytics.test.ts', 'test/schedule-e2e.test.ts',
  'test/spec-profile.test.ts',
];

export default defineConfig({
  test: {
    // Integration tests start real servers and open real DuckDB files.
    testTimeout: 60_000,
    globalSetup: ['./test/helpers/globalSetup.ts'],
    hookTimeout: 60_000,
    pool: 'forks',
    // Three files at a time on 2 cores: many wait on servers, latency, retries (the spec profile's
    // Retry-After), ticks and signals rather than compute. Measured in .ci/run on 2 cores: two at a
    // time kept the cores 73 % busy (24 CPU-minutes in 16.4 minutes of tests); one: ~13 min before
    // the concurrency, time-zone, old-client and cost files were added.
    maxWorkers: 3,
    reporters: ['default', './test/helpers/summaryReporter.ts'],
    // The end-to-end files run twice: against the sandbox as the real API serves (default) and
    // against `--profile spec`, a server of only the documented interface (test/helpers/testProfile.ts).
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'], exclude: ['test/spec-profile.test.ts'] } },
      { extends: true, test: { name: 'spec', include: BOTH_PROFILES, env: { TARIFFS_TEST_PROFILE: 'spec' } } },
    ],
  },
});
