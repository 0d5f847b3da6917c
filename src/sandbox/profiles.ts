// Profiles of the sandbox. `default` serves everything the recorded data holds, the way the real
// API does. `spec` serves only what the platform's REST interface documents
// (test/fixtures/spec/platform-rest-interface.md), so that the client can be tested against a
// server that implements exactly that and nothing more: the products list (paged at 25, with fields
// the spec does not list on envelopes and records), a product's detail, standard unit rates
// (`page_size` ignored: 100 a page; gas tariffs' too) and accounts. Standing charges, day/night
// rates, the meters' consumption and GraphQL answer 404; a share of requests is throttled (429, `Retry-After: 1`) and now and then one
// fails with 503, deterministically by request order.
import { parseFaultSpecs, type FaultSpec } from './faults.js';

export const SANDBOX_PROFILES = ['default', 'spec'] as const;
export type SandboxProfile = (typeof SANDBOX_PROFILES)[number];

export interface ProfileRules {
  /** Fixed page size of the products list (undefined: as asked, 100 by default). */
  productsPageSize?: number;
  /** Fixed page size of rate lists, `page_size` ignored (undefined: as asked, up to 1500). */
  ratesPageSize?: number;
  /** Rate endpoints served (undefined: every kind the tariff has). */
  rateEndpoints?: ReadonlySet<string>;
  fuels: ReadonlySet<'electricity' | 'gas'>;
  graphql: boolean;
  /** The meters' consumption endpoints (not in the documented interface). */
  consumption: boolean;
  /** Fields added to every list envelope and to each product record (undocumented extras). */
  envelopeExtras?: Record<string, unknown>;
  productExtras?: Record<string, unknown>;
  /** Faults that come with the profile, applied when no --fault decides the response. */
  faults: FaultSpec[];
}

/** One in 17 requests throttled, one in 89 a 503: both primes, so they seldom coincide. */
export const SPEC_PROFILE_FAULTS = ['429:retry_after=1,every=17', '503:every=89'];

export function profileRules(profile: SandboxProfile): ProfileRules {
  if (profile === 'default') return { fuels: new Set(['electricity', 'gas']), graphql: true, consumption: true, faults: [] };
  return {
    productsPageSize: 25,
    ratesPageSize: 100,
    rateEndpoints: new Set(['standard-unit-rates']),
    fuels: new Set(['electricity', 'gas']),
    graphql: false,
    consumption: false,
    envelopeExtras: { api_version: '1', meta: { deprecated_fields: [] } },
    productExtras: { sort_order: 0, tags: ['undocumented'], marketing_label: null },
    faults: parseFaultSpecs(SPEC_PROFILE_FAULTS),
  };
}
