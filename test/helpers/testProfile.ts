// Which sandbox profile the end-to-end tests run against. vitest.config.ts runs those files twice:
// once as they are (`default`: everything the real API serves) and once as the `spec` project with
// TARIFFS_TEST_PROFILE=spec (only what the documented interface has, throttled now and then).
import { SANDBOX_PROFILES, type SandboxProfile } from '../../src/sandbox/startSandbox.js';

function profileFromEnv(): SandboxProfile {
  const value = process.env.TARIFFS_TEST_PROFILE ?? 'default';
  if (!(SANDBOX_PROFILES as readonly string[]).includes(value)) {
    throw new Error(`TARIFFS_TEST_PROFILE=${value}: expected one of ${SANDBOX_PROFILES.join(', ')}`);
  }
  return value as SandboxProfile;
}

export const PROFILE: SandboxProfile = profileFromEnv();

