import { defineConfig } from 'vitest/config';

/** Files that run against both sandbox profiles: the `spec` project repeats them with
 *  TARIFFS_TEST_PROFILE=spec (test/helpers/testProfile.ts). Not analytics.test.ts: it reads only
 *  the unit rates of Agile A and J, and spec-profile.test.ts proves the spec profile's ingest
 *  stores exactly the full interface's (ratesFingerprint over every column): a second run asked
 *  the same questions of the same rows (82 s of the suite's 1,492 worker-seconds, stop 33's CI). */
const BOTH_PROFILES = [
  'test/warehouse.test.ts', 'test/ingest-cli.test.ts', 'test/schedule-e2e.test.ts',
  'test/spec-profile.test.ts',
];

export default defineConfig({
  test: {
    // Integration tests start real servers and open real DuckDB files.
    testTimeout: 60_000,
    globalSetup: ['./test/helpers/globalSetup.ts'],
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time: many wait on servers, retries (the spec profile's Retry-After) and
    // signals rather than compute, so the second core is not idle. Three saved 47 s of 17 min in
    // .ci/run but made the timing-split cases (ingest-progress's requests before the first commit,
    // schedule-e2e's run still going at SIGTERM) fail in a fresh clone.
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summaryReporter.ts'],
    // The end-to-end files run twice: against the sandbox as the real API serves (default) and
    // against `--profile spec`, a server of only the documented interface (test/helpers/testProfile.ts).
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'], exclude: ['test/spec-profile.test.ts'] } },
      { extends: true, test: { name: 'spec', include: BOTH_PROFILES, env: { TARIFFS_TEST_PROFILE: 'spec' } } },
    ],
  },
});
