// Made-up half-hourly rates for benchmarks and tests that need volume, not realism (addTariff).
// Deterministic: the price of slot i is whatever the caller's function says.
import type { RateInput } from './RateSeries.js';

const HALF_HOUR = 30 * 60_000;

/**
 * `count` contiguous 30-minute rates starting at `from` (UTC), oldest first, with value_inc_vat =
 * price(i) and value_exc_vat = price(i) / 1.05 rounded to 4 dp.
 */
export function halfHourlyRates(from: Date | string, count: number, price: (i: number) => number): RateInput[] {
  const start = typeof from === 'string' ? Date.parse(from) : from.getTime();
  if (!Number.isFinite(start)) throw new RangeError(`halfHourlyRates: '${String(from)}' is not a datetime`);
  const rates: RateInput[] = new Array<RateInput>(count);
  for (let i = 0; i < count; i++) {
    const inc = price(i);
    rates[i] = {
      value_exc_vat: Math.round((inc / 1.05) * 10_000) / 10_000,
      value_inc_vat: inc,
      valid_from: start + i * HALF_HOUR,
      valid_to: start + (i + 1) * HALF_HOUR,
      payment_method: null,
    };
  }
  return rates;
}
