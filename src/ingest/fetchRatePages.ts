// The requests of a rates stream: one window of a tariff's rate kind, page by page.
import type { OctopusClient } from '../api/OctopusClient.js';
import type { RatePage } from '../api/paginate.js';
import type { RateKind } from '../store/writeRates.js';
import type { Span, Stream } from './planFetches.js';

/** The pages of `stream` over `window`, newest first, as the client validates them. */
export function fetchRatePages(client: OctopusClient, stream: Stream, window: Span, signal?: AbortSignal): AsyncGenerator<RatePage> {
  const { target, kind } = stream;
  const period = window.to === undefined ? { from: window.from } : { from: window.from, to: window.to };
  const endpoint = target.fuel === 'gas' ? (kind === 'standing_charge' ? 'standing-charges' : 'standard-unit-rates') : endpointOf(kind);
  return client.rateColumns(target.fuel, target.productCode, target.tariffCode, endpoint, period, { signal });
}

function endpointOf(kind: RateKind): 'standard-unit-rates' | 'day-unit-rates' | 'night-unit-rates' | 'standing-charges' {
  switch (kind) {
    case 'standard': return 'standard-unit-rates';
    case 'day': return 'day-unit-rates';
    case 'night': return 'night-unit-rates';
    case 'standing_charge': return 'standing-charges';
  }
}
