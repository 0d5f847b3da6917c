// The test runner's set-up: two projects (the sandbox as the real API serves it, and the strict
// `spec` profile for the end-to-end files), two files at a time, the spec files dealt in.
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that run against both sandbox profiles: the `spec` project repeats them with
 *  TARIFFS_TEST_PROFILE=spec (test/helpers/testProfile.ts). Not analytics.test.ts: it reads only
 *  the unit rates of Agile A and J, and spec-profile.test.ts proves the spec profile's ingest
 *  stores exactly the full interface's (ratesFingerprint over every column): a second run would
 *  ask the same questions of the same rows. */
const BOTH_PROFILES = [
  'test/warehouse.test.ts', 'test/ingest-cli.test.ts', 'test/schedule-e2e.test.ts',
  'test/spec-profile.test.ts',
];

/** vitest's order (BaseSequencer: longest or largest first) with the `spec` project's files dealt
 *  in among the default project's, one in two. vitest's order puts a project's files after the
 *  previous project's, so the spec files, which wait on throttling (real `Retry-After` seconds)
 *  more than they compute, ran last, two at a time, with the CPU half idle; dealt in, each waits
 *  while another file computes. */
class SpecDealtIn extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const spec = sorted.filter((f) => f.project.name === 'spec');
    const others = sorted.filter((f) => f.project.name !== 'spec');
    const dealt: TestSpecification[] = [];
    while (spec.length > 0 || others.length > 0) {
      for (const next of [spec.shift(), others.shift()]) if (next) dealt.push(next);
    }
    return dealt;
  }
}

export default defineConfig({
  test: {
    // Integration tests start real servers and open real DuckDB files.
    testTimeout: 60_000,
    globalSetup: ['./test/helpers/globalSetup.ts'],
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time: many wait on servers, retries (the spec profile's Retry-After) and
    // signals rather than compute, so the second core is not idle. Three at a time made the
    // timing-split cases (ingest-progress's requests before the first commit, schedule-e2e's run
    // still going at SIGTERM) fail in a fresh clone.
    maxWorkers: 2,
    sequence: { sequencer: SpecDealtIn },
    reporters: ['default', './test/helpers/summaryReporter.ts'],
    // The end-to-end files run twice: against the sandbox as the real API serves (default) and
    // against `--profile spec`, a server of only the documented interface (test/helpers/testProfile.ts).
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'], exclude: ['test/spec-profile.test.ts'] } },
      { extends: true, test: { name: 'spec', include: BOTH_PROFILES, env: { TARIFFS_TEST_PROFILE: 'spec' } } },
    ],
  },
});
