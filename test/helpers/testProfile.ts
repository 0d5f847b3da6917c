// Which sandbox profile the end-to-end tests run against. vitest.config.ts runs those files twice:
// once as they are (`default`: everything the real API serves) and once as the `spec` project with
// TARIFFS_TEST_PROFILE=spec (only what the documented interface has, throttled now and then).
import { SANDBOX_PROFILES, SPEC_PROFILE_FAULTS, type SandboxOptions, type SandboxProfile } from '../../src/sandbox/startSandbox.js';

function profileFromEnv(): SandboxProfile {
  const value = process.env.TARIFFS_TEST_PROFILE ?? 'default';
  if (!(SANDBOX_PROFILES as readonly string[]).includes(value)) {
    throw new Error(`TARIFFS_TEST_PROFILE=${value}: expected one of ${SANDBOX_PROFILES.join(', ')}`);
  }
  return value as SandboxProfile;
}

export const PROFILE: SandboxProfile = profileFromEnv();

/** The spec profile's faults with every Retry-After 0: throttled as often, each retry after the
 *  client's own backoff (a quarter to half a second) rather than the profile's second. The
 *  end-to-end files run a long ingest or several, and the waits were most of the spec project's
 *  time; that the client waits out a Retry-After is warehouse.test.ts's and api-client.test.ts's
 *  to show, against the profile as it is. */
export const UNHURRIED_SPEC_FAULTS = SPEC_PROFILE_FAULTS.map((f) => f.replace(/retry_after=\d+/, 'retry_after=0'));

/** startSandbox's options for an end-to-end file: PROFILE, throttled without long waits. */
export const PROFILE_OPTIONS: SandboxOptions = PROFILE === 'spec' ? { profile: PROFILE, profileFaults: UNHURRIED_SPEC_FAULTS } : { profile: PROFILE };
